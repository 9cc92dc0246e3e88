import { tenancyOfKey, type ApiKeyPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { findCommitment, insertCommitment, lockAccountQuote, type CommitmentRow } from './store';

/**
 * POST …/quotes/{quoteId}/commitment/confirm: Live only, on a `quoted` quote. Idempotent: the
 * same external_ref confirms again with the same answer; another one answers 409.
 */
export async function confirmCommitment(ctx: VerbContext<ApiKeyPrincipal>, input: { quoteId: string; externalRef: string }) {
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
    if (quote.state !== 'quoted') {
      throw new ServiceError('conflict', `Only a quoted quote can be committed; this one is ${quote.state}.`, { param: 'quoteId' });
    }
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
