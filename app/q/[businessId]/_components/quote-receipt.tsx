import { useEffect, useRef, useState, type RefObject } from 'react';
import { formatMoney, ReceiptSummary } from '@/app/_components/receipt-view';
import type { Answers, Offering } from './answers';
import { AcceptQuote, useAcceptance } from './accept-quote';
import type { AcceptanceState } from './acceptance-request';
import { LocalTime } from './local-time';
import { SignedReceipt } from './signed-receipt';
import type { QuoteResult } from './submit-public-quote';

export type NextStep = { label: string; url: string };

type Props = {
  businessId: string;
  businessName: string;
  result: QuoteResult;
  /** Whether and how this quote can be accepted, when the page was opened with it. */
  acceptance: AcceptanceState | null;
  nextStep: NextStep | null;
  /** The offering as the version that priced the quote asked it (labels of its questions). */
  offering: Offering | undefined;
  onStartAgain(): void;
  /** Back to the form with this quote's answers filled in: a new price for the same job. */
  onNewPrice(): void;
};

/** A priced quote as the customer sees it: the total first, then how it adds up. */
export function QuoteReceipt({ businessId, businessName, result, acceptance, offering, nextStep, onStartAgain, onNewPrice }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const computation = result.quoteReceipt.computation!;
  const { currency, totalMinor, paymentTerms } = computation;
  const acceptanceLoad = useAcceptance(result.quoteIntent.id, acceptance);
  const accepted = acceptanceLoad.state?.acceptance != null;
  // Accepted in time, the acceptance stands; else past its validity (or found so on accepting) it is only a record.
  const expired = !accepted && (result.quoteIntent.status === 'expired' || acceptanceLoad.state?.refusal === 'expired');
  useEffect(() => heading.current?.focus(), [expired]);
  if (expired) {
    return <ExpiredReceipt headingRef={heading} businessName={businessName} result={result} offering={offering} onNewPrice={onNewPrice} />;
  }
  return (
    <section className="quote-receipt" aria-labelledby="quote-receipt-heading">
      <h2 id="quote-receipt-heading" ref={heading} tabIndex={-1}>
        Your price{offering ? ` for ${offering.label.toLowerCase()}` : ''}
      </h2>
      <div className="quote-headline">
        <span className="quote-headline-total">{formatMoney(totalMinor, currency)}</span>
        {paymentTerms.depositMinor > 0 && (
          <span className="quote-headline-deposit">
            {formatMoney(paymentTerms.depositMinor, currency)} deposit to book
          </span>
        )}
      </div>
      {/* Once accepted, the confirmation is what matters: the price's validity no longer does. */}
      {!accepted && <Validity expiresAt={result.quoteIntent.expiresAt} businessName={businessName} />}
      <AcceptQuote businessId={businessId} businessName={businessName} quoteIntentId={result.quoteIntent.id} acceptance={acceptanceLoad} />
      {nextStep && (
        <p className="quote-next-step">
          <a className="button primary" href={withQuoteReference(nextStep.url, result.quoteIntent.id)} rel="noopener">
            {nextStep.label}
          </a>
        </p>
      )}
      <h3>How your price adds up</h3>
      <ReceiptSummary computation={computation} />
      {offering && <AnswerList offering={offering} answers={result.quoteIntent.inputs} />}
      <p className="quote-reference">
        Quote reference <code data-testid="quote-reference">{result.quoteIntent.id}</code>
        <span className="print-only">
          {' '}
          · issued by {businessName} on <LocalTime iso={result.quoteReceipt.createdAt} style={{ dateStyle: 'long', timeStyle: 'short' }} />
        </span>
      </p>
      <SignedReceipt receipt={result.quoteReceipt} businessName={businessName} />
      <ComeBackLink />
      <button type="button" className="primary" onClick={onStartAgain}>
        Start again
      </button>
    </section>
  );
}

/** The business's next-step page learns which quote the customer comes from (`?quote=<id>`). */
function withQuoteReference(url: string, quoteIntentId: string): string {
  try {
    const next = new URL(url);
    next.searchParams.set('quote', quoteIntentId);
    return next.toString();
  } catch {
    return url;
  }
}

/** Until when the price holds, in words. */
function Validity({ expiresAt, businessName }: { expiresAt: string | null; businessName: string }) {
  if (!expiresAt) return null;
  return (
    <p className="quote-validity" data-testid="quote-validity">
      {businessName} holds this price until <strong><LocalTime iso={expiresAt} style={{ dateStyle: 'full' }} /></strong>.
    </p>
  );
}

/**
 * A price past its validity: that it expired, when, and the one thing to do (a new price, the
 * answers filled in). Nothing that offers the old price: no deposit, no booking, no link to keep;
 * how it added up stays folded away, for the record.
 */
function ExpiredReceipt({
  headingRef,
  businessName,
  result,
  offering,
  onNewPrice,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  businessName: string;
  result: QuoteResult;
  offering: Offering | undefined;
  onNewPrice(): void;
}) {
  const computation = result.quoteReceipt.computation!;
  const { expiresAt } = result.quoteIntent;
  return (
    <section className="quote-receipt quote-expired" aria-labelledby="quote-receipt-heading">
      <h2 id="quote-receipt-heading" ref={headingRef} tabIndex={-1}>
        This price has expired
      </h2>
      <p className="quote-expired-what" data-testid="quote-expired">
        The price {businessName} gave you{offering ? ` for ${offering.label.toLowerCase()}` : ''}
        {expiresAt ? (
          <>
            {' '}
            was valid until <strong><LocalTime iso={expiresAt} style={{ dateStyle: 'full' }} /></strong>
          </>
        ) : (
          ' is no longer valid'
        )}
        . Prices change, so it can no longer be accepted.
      </p>
      <p className="quote-expired-next">Get a new price for the same job: we fill in your answers, so you can check them and send them again.</p>
      <button type="button" className="primary quote-new-price" onClick={onNewPrice}>
        Get a new price
      </button>
      <details className="quote-expired-record">
        <summary>
          The expired price: {formatMoney(computation.totalMinor, computation.currency)}
        </summary>
        <ReceiptSummary computation={computation} paymentTerms={false} />
        {offering && <AnswerList offering={offering} answers={result.quoteIntent.inputs} />}
        <p className="quote-reference">
          Quote reference <code data-testid="quote-reference">{result.quoteIntent.id}</code>
        </p>
      </details>
    </section>
  );
}

/** This page's address names the quote: keeping it brings the customer back to this price. */
function ComeBackLink() {
  const [url, setUrl] = useState('');
  const [copied, setCopied] = useState(false);
  useEffect(() => setUrl(window.location.href), []);
  if (!url) return null;
  return (
    <div className="quote-link">
      <label htmlFor="quote-link">Come back to this price any time with this link</label>
      <div className="quote-link-row">
        <input id="quote-link" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy link
        </button>
      </div>
      <p className="quote-link-note" role="status">
        {copied ? 'Copied.' : ''}
      </p>
    </div>
  );
}

function AnswerList({ offering, answers }: { offering: Offering; answers: Answers }) {
  const answered = offering.factors.filter((factor) => factor.id in answers.factors);
  if (answered.length === 0) return null;
  return (
    <>
      <h3>What you told us</h3>
      <dl className="answer-list">
        {answered.map((factor) => {
          const answer = answers.factors[factor.id];
          return (
            <div key={factor.id}>
              <dt>{factor.label}</dt>
              <dd>{answer === null ? notSure(factor) : (factor.options.find((o) => o.id === answer)?.label ?? answer)}</dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}

/** "Not sure", and what the price assumed instead when the book says so. */
function notSure(factor: Offering['factors'][number]): string {
  const assumed = factor.options.find((o) => o.id === factor.assumedOptionId);
  return assumed ? `Not sure — we assumed “${assumed.label}”` : 'Not sure';
}
