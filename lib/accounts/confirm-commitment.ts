import { tenancyOfKey, type ApiKeyPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { isExpired } from './account-quote-views';
import type { ProducedQuote } from './account-schemas';
import { findCommitment, insertCommitment, lockAccountQuote, type CommitmentRow } from './store';

/** What the integration showed the customer, when it says: the quote's signature or its total. */
export type ShownQuote = { signature?: string; total?: { low_cents: number; high_cents: number } };

/**
 * POST …/quotes/{quoteId}/commitment/confirm: Live only, on a `quoted` quote whose price still
 * holds, and, when the integration says what it showed, on exactly that quote. Idempotent: the
 * same external_ref confirms again with the same answer; another one answers 409.
 */
export async function confirmCommitment(ctx: VerbContext<ApiKeyPrincipal>, input: { quoteId: string; externalRef: string; shown?: ShownQuote }) {
  const { principal, now } = ctx;
  if (principal.environment !== 'live') {
    throw new ServiceError('forbidden', 'Commitments can only be confirmed with a Live API key.');
  }
  return withTransaction(ctx, async ({ db: tx }) => {
    const quote = await lockAccountQuote(tx, { id: input.quoteId, environmentId: principal.environmentId });
    if (!quote) throw new ServiceError('not_found', `No quote ${input.quoteId} in this account.`, { param: 'quoteId' });
    const existing = await findCommitment(tx, quote.id);
    if (existing) {
      if (existing.externalRef !== input.externalRef) {
        throw new ServiceError('conflict', 'This quote is already committed with another external_ref.', { param: 'external_ref' });
      }
      return toCommitment(existing, quote.id);
    }
    if (quote.reviewDecision === 'declined') {
      throw new ServiceError('quote_declined', 'The business declined this quote; it cannot be committed.', { param: 'quoteId' });
    }
    if (quote.state !== 'quoted') {
      throw new ServiceError('conflict', `Only a quoted quote can be committed; this one is ${quote.state}.`, { param: 'quoteId' });
    }
    if (isExpired(quote, now)) {
      throw new ServiceError('quote_expired', `This price expired at ${quote.expiresAt!.toISOString()}; make a new quote.`, { param: 'quoteId' });
    }
    refuseIfNotShown(quote.response as ProducedQuote, input.shown);
    const created = await insertCommitment(tx, { accountQuoteId: quote.id, externalRef: input.externalRef, confirmedAt: now });
    const commitment = toCommitment(created, quote.id);
    await recordEvent(
      { db: tx, now },
      {
        type: 'commitment.confirmed',
        ...tenancyOfKey(principal),
        subjectId: quote.id,
        data: { commitment },
      },
    );
    return commitment;
  });
}

/** Never a silent commitment to another price: 409 `receipt_mismatch` naming the difference. */
function refuseIfNotShown(quote: ProducedQuote, shown: ShownQuote | undefined) {
  if (shown?.signature !== undefined && shown.signature !== quote.signature?.value) {
    const stored = quote.signature ? `is signed ${quote.signature.value.slice(0, 12)}… (key ${quote.signature.kid})` : 'has no signature';
    throw new ServiceError('receipt_mismatch', `The quote ${stored}; the signature you sent, ${shown.signature.slice(0, 12)}…, is not its signature.`, {
      param: 'receipt_signature',
    });
  }
  const total = shown?.total;
  if (total && (total.low_cents !== quote.total.low_cents || total.high_cents !== quote.total.high_cents)) {
    const range = (t: { low_cents: number; high_cents: number }) => (t.low_cents === t.high_cents ? `${t.low_cents}` : `${t.low_cents}–${t.high_cents}`);
    throw new ServiceError(
      'receipt_mismatch',
      `The quote's total is ${range(quote.total)} ${quote.currency} (minor units); you showed ${range(total)}, a difference of ${quote.total.high_cents - total.high_cents}.`,
      { param: 'expected_total' },
    );
  }
}

function toCommitment(row: CommitmentRow, quoteId: string) {
  return {
    object: 'commitment' as const,
    commitment_id: row.id,
    quote_id: quoteId,
    external_ref: row.externalRef,
    confirmed: true,
    confirmed_at: row.confirmedAt.toISOString(),
  };
}
