'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import type { AnswerOf } from '@/lib/http/contract';
import type { reviewWorkspaceAccountQuoteContract } from '@/app/v1/account-quotes/contract';
import type { listBusinessAccountQuotesContract, reviewAccountQuoteContract } from '@/app/v1/businesses/contract';
import { ApiError, apiFetch, friendlyError } from '../../../_components/api';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { CopyId } from '../../../_components/copy-id';
import type { Business } from '../../../_components/queries';
import { formatTime } from '../../../_components/ui';

/** A quote of an integration as the business's list answers it (GET /v1/businesses/{id}/account-quotes; the workspace route's is the same). */
export type AccountQuoteView = AnswerOf<typeof listBusinessAccountQuotesContract>['quotes'][number];

/** A price or a range, in the quote's currency. */
export function priceOf(total: { lowMinor: number; highMinor: number }, currency: string): string {
  const low = formatMoney(total.lowMinor, currency);
  return total.lowMinor === total.highMinor ? low : `${low} – ${formatMoney(total.highMinor, currency)}`;
}

const formatDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * One account quote as its reviewer needs it: the price, what the customer answered, why it was
 * held, and Approve / Decline (decline asks why). Read-only for those who cannot decide.
 */
export function HeldQuoteCard({
  business,
  quote,
  canReview,
  onDecided,
  onStale,
}: {
  business: Business;
  quote: AccountQuoteView;
  canReview: boolean;
  /** A decision was recorded: the message to announce. */
  onDecided: (message: string) => void;
  /** The quote changed under the reviewer: read the list again. */
  onStale: () => void;
}) {
  const id = useId();
  const unpriced = quote.disposition === 'unpriced';
  const price = unpriced ? 'No price' : priceOf(quote.total, quote.currency);
  const made = formatTime(quote.createdAt);
  const reasons = quote.simulation?.review_reasons ?? [];
  const pending = quote.state === 'awaiting_approval' && quote.review === null;
  return (
    <article className="card held-quote" aria-labelledby={`${id}-title`}>
      <header className="held-quote-head">
        <h2 id={`${id}-title`} className="held-quote-price">
          {price}
          <span className="sr-only"> quote of {made}</span>
        </h2>
        <span className="muted">Made {made}</span>
        <Validity quote={quote} />
      </header>
      {quote.answers ? (
        <section aria-label="What the customer asked">
          <h3>What the customer asked</h3>
          {quote.answers.map((service, i) => (
            <div key={`${service.service}-${i}`} className="held-quote-service">
              <strong>{service.label ?? service.service}</strong>
              {service.selections.length > 0 && (
                <dl className="facts">
                  {service.selections.map((s) => (
                    <div key={s.selection} style={{ display: 'contents' }}>
                      <dt>{s.label ?? s.selection}</dt>
                      <dd>{s.value === null ? 'Not sure' : (s.valueLabel ?? s.value)}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </div>
          ))}
        </section>
      ) : (
        <p className="muted">This quote was made before requests were kept: its answers are not stored.</p>
      )}
      {unpriced && quote.signedQuote.unpriced_reason && <p className="muted">Not priced: {quote.signedQuote.unpriced_reason.message}</p>}
      {quote.disposition === 'hold' && reasons.length > 0 && (
        <section aria-label="Why it was held">
          <h3>Why it was held</h3>
          <ul className="held-quote-reasons">
            {reasons.map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
        </section>
      )}
      {quote.simulation && quote.simulation.line_items.length > 0 && (
        <details>
          <summary>How the price adds up</summary>
          <table className="held-quote-lines">
            <tbody>
              {quote.simulation.line_items.map((line, i) => (
                <tr key={`${line.source}-${i}`}>
                  <td>{line.label}</td>
                  <td className="num">{priceOf({ lowMinor: line.total.low_cents, highMinor: line.total.high_cents }, quote.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <p className="held-quote-meta muted">
        Quote <CopyId id={quote.id} label="quote id" />
        {quote.signedQuote.signature && <> · signed with key {quote.signedQuote.signature.kid}</>}
        {quote.bookVersion && <> · price book v{quote.bookVersion.number}</>}
      </p>
      <Outcome quote={quote} />
      {pending && canReview && <Decision business={business} quote={quote} price={price} onDecided={onDecided} onStale={onStale} />}
      {quote.state === 'observed' && <p className="muted">Observed: an autonomous book would have sent this price. Nothing was sent.</p>}
    </article>
  );
}

function Validity({ quote }: { quote: AccountQuoteView }) {
  if (quote.expired) return <span className="badge danger">Expired {quote.expiresAt && formatDay(quote.expiresAt)}</span>;
  if (!quote.expiresAt) return null;
  return <span className="badge">Valid until {formatDay(quote.expiresAt)}</span>;
}

function Outcome({ quote }: { quote: AccountQuoteView }) {
  const { review, commitment } = quote;
  if (!review && !commitment) return null;
  const who = review ? (review.reviewedBy.name ?? review.reviewedBy.email ?? 'someone') : '';
  return (
    <div className="held-quote-outcome">
      {review && (
        <p>
          <span className={`badge ${review.decision === 'approved' ? 'ok' : 'danger'}`}>{review.decision === 'approved' ? 'Approved' : 'Declined'}</span>{' '}
          by {who} on {formatTime(review.reviewedAt)}
          {review.reason && <> — “{review.reason}”</>}
        </p>
      )}
      {commitment && (
        <p>
          <span className="badge ok">Committed</span> {formatTime(commitment.confirmedAt)} as <code>{commitment.externalRef}</code>
        </p>
      )}
    </div>
  );
}

function Decision({
  business,
  quote,
  price,
  onDecided,
  onStale,
}: {
  business: Business;
  quote: AccountQuoteView;
  price: string;
  onDecided: (message: string) => void;
  onStale: () => void;
}) {
  const id = useId();
  const [declining, setDeclining] = useState(false);
  // A Live approval reaches a customer and cannot be taken back: it is asked once more (Test stays one click).
  const live = quote.environment === 'live';
  const [confirming, setConfirming] = useState(false);
  const approveButton = useRef<HTMLButtonElement>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  // One key per decision attempt: a double click replays the first answer instead of a 409.
  const attempt = useRef<string | null>(null);
  const decide = useMutation({
    mutationFn: (body: { decision: 'approved' | 'declined'; reason?: string }) => {
      attempt.current ??= crypto.randomUUID();
      // A Live quote on the member route (spec 9: the business's Live connection); a Test one on the workspace route.
      return quote.environment === 'live'
        ? apiFetch<typeof reviewAccountQuoteContract>(`/v1/businesses/${business.id}/account-quotes/${quote.id}/review`, { method: 'POST', body, idempotencyKey: attempt.current })
        : apiFetch<typeof reviewWorkspaceAccountQuoteContract>(`/v1/account-quotes/${quote.id}/review`, {
            method: 'POST',
            body: { businessId: business.id, ...body },
            idempotencyKey: attempt.current,
          });
    },
    onSuccess: (_, body) => {
      attempt.current = null;
      onDecided(
        body.decision === 'approved'
          ? `Approved the quote of ${price}. Your integration hears of it (account_quote.approved) and can send it on.`
          : `Declined the quote of ${price}. Your integration hears of it (account_quote.declined); it cannot be committed.`,
      );
    },
    onError: (error) => {
      // A lost answer keeps its key: the retry replays whatever the service decided.
      if (!(error instanceof ApiError && error.code === 'network')) attempt.current = null;
      // Decided elsewhere meanwhile, or no longer decidable: show the quote as it stands now.
      if (error instanceof ApiError && ['already_reviewed', 'quote_expired', 'not_found', 'conflict'].includes(error.code)) onStale();
    },
  });
  const expired = quote.expired;

  function submitDecline(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError('Say why, so that the integration can tell the customer.');
      return;
    }
    setReasonError(null);
    decide.mutate({ decision: 'declined', reason: reason.trim() });
  }

  return (
    <div className="held-quote-actions">
      {decide.isError && (
        <p className="error" role="alert">
          {friendlyError(decide.error)}
        </p>
      )}
      {expired && <p className="warning">This price has expired: it can be declined, not approved. The integration can make a new quote.</p>}
      {!declining ? (
        <div className="row">
          <button
            ref={approveButton}
            type="button"
            className="primary"
            disabled={decide.isPending || expired}
            aria-label={`Approve the quote of ${price}`}
            aria-haspopup={live ? 'dialog' : undefined}
            onClick={() => (live ? setConfirming(true) : decide.mutate({ decision: 'approved' }))}
          >
            {decide.isPending && decide.variables?.decision === 'approved' ? 'Approving…' : live ? 'Approve…' : 'Approve'}
          </button>
          <button type="button" disabled={decide.isPending} aria-label={`Decline the quote of ${price}`} onClick={() => setDeclining(true)}>
            Decline…
          </button>
        </div>
      ) : (
        <form onSubmit={submitDecline} noValidate aria-label={`Decline the quote of ${price}`}>
          <div className="field">
            <label htmlFor={`${id}-reason`}>Why decline it?</label>
            <textarea
              id={`${id}-reason`}
              rows={2}
              maxLength={1000}
              value={reason}
              autoFocus
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${id}-reason-error` : `${id}-reason-hint`}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
            />
            <span className="hint" id={`${id}-reason-hint`}>
              Recorded with your decision and sent to the integration.
            </span>
            {reasonError && (
              <p className="field-error" id={`${id}-reason-error`}>
                {reasonError}
              </p>
            )}
          </div>
          <div className="row">
            <button type="submit" className="danger solid" disabled={decide.isPending}>
              {decide.isPending ? 'Declining…' : 'Decline quote'}
            </button>
            <button type="button" disabled={decide.isPending} onClick={() => setDeclining(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {live && (
        <ConfirmDialog
          open={confirming}
          title={`Approve the quote of ${price}?`}
          confirmLabel="Approve quote"
          onConfirm={() => {
            setConfirming(false);
            decide.mutate({ decision: 'approved' });
          }}
          onCancel={() => {
            setConfirming(false);
            approveButton.current?.focus();
          }}
        >
          <p>
            This is a Live quote for a real customer. Your integration hears of the approval at once (<code>account_quote.approved</code>) and can
            send the price on. An approval cannot be taken back.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
