import type { ApiKeyPrincipal } from '../auth/principal';
import { readDbOf, type VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { ServiceError } from '../errors/service-error';
import { isExpired } from './account-quote-views';
import type { AccountQuoteRecordView, ProducedQuote, ReviewDecision } from './account-schemas';
import { findAccountQuote, listAccountQuotes, type AccountQuoteRecord } from './store';

/**
 * GET /v1/accounts/{id}/quotes: the account's produced quotes in the key's environment, newest
 * first (the route has checked the account is the key's). Nothing of the other environment.
 */
export async function listAccountSurfaceQuotes(
  ctx: VerbContext<ApiKeyPrincipal>,
  query: { state?: AccountQuoteRecordView['state']; limit: number; cursor?: string },
) {
  const { projectId, environmentId } = ctx.principal;
  const rows = await listAccountQuotes(readDbOf(ctx), { ...query, projectId, environmentId, order: 'newest' });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { object: 'list' as const, data: page.map((record) => toRecordView(record, ctx.now)), has_more: nextCursor !== null, next_cursor: nextCursor };
}

/** GET /v1/accounts/{id}/quotes/{quoteId}: one of them; another environment's or account's is 404. */
export async function getAccountSurfaceQuote(ctx: VerbContext<ApiKeyPrincipal>, quoteId: string): Promise<AccountQuoteRecordView> {
  const record = await findAccountQuote(readDbOf(ctx), { id: quoteId, projectId: ctx.principal.projectId });
  if (!record || record.environmentId !== ctx.principal.environmentId) {
    throw new ServiceError('not_found', `No quote ${quoteId} in this account and environment.`, { param: 'quoteId' });
  }
  return toRecordView(record, ctx.now);
}

function toRecordView(record: AccountQuoteRecord, now: Date): AccountQuoteRecordView {
  const commitment = record.commitments[0];
  return {
    object: 'account_quote',
    id: record.id,
    state: record.state as AccountQuoteRecordView['state'],
    expired: isExpired(record, now),
    review:
      record.reviewDecision && record.reviewedAt && record.reviewedBy
        ? { decision: record.reviewDecision as ReviewDecision, reason: record.reviewReason, reviewed_at: record.reviewedAt.toISOString(), reviewed_by: record.reviewedBy }
        : null,
    commitment: commitment ? { commitment_id: commitment.id, external_ref: commitment.externalRef, confirmed_at: commitment.confirmedAt.toISOString() } : null,
    created: record.createdAt.toISOString(),
    quote: record.response as ProducedQuote,
  };
}
