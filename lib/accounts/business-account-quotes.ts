import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { ServiceError } from '../errors/service-error';
import type { AccountQuoteView } from './account-schemas';
import { toAccountQuoteViews } from './account-quote-views';
import { findProjectEnvironment } from '../tenancy/store';
import { findAccountQuote, listAccountQuotes, type AccountQuotesQuery } from './store';

export type BusinessAccountQuotesQuery = Pick<AccountQuotesQuery, 'state' | 'review' | 'limit' | 'cursor'> & {
  environment: 'test' | 'live';
  order?: AccountQuotesQuery['order'];
};

/**
 * GET /v1/businesses/{id}/account-quotes: the quotes integrations made on the account surface
 * for the project the business is connected to (the route has checked that the person may read
 * the business). Quotes waiting for review are a queue, oldest first; the rest newest first.
 */
export async function listBusinessAccountQuotes(
  ctx: VerbContext,
  { access, query }: { access: BusinessAccess; query: BusinessAccountQuotesQuery },
): Promise<{ quotes: AccountQuoteView[]; nextCursor: string | null }> {
  if (!access.connection) return { quotes: [], nextCursor: null };
  const environmentId =
    query.environment === 'live'
      ? access.connection.liveEnvironmentId
      : (await findProjectEnvironment(ctx.db, { projectId: access.connection.projectId, kind: 'test' }))!.id;
  const order = query.order ?? (query.review === 'pending' ? 'oldest' : 'newest');
  const rows = await listAccountQuotes(ctx.db, { ...query, order, projectId: access.connection.projectId, environmentId });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { quotes: await toAccountQuoteViews(ctx, page, () => query.environment), nextCursor };
}

/** GET /v1/businesses/{id}/account-quotes/{quoteId}: one of them, or 404. */
export async function getBusinessAccountQuote(ctx: VerbContext, { access, quoteId }: { access: BusinessAccess; quoteId: string }): Promise<AccountQuoteView> {
  const record = access.connection ? await findAccountQuote(ctx.db, { id: quoteId, projectId: access.connection.projectId }) : null;
  if (!record || !access.connection) throw new ServiceError('not_found', `No quote ${quoteId} for this business.`);
  const liveId = access.connection.liveEnvironmentId;
  const [view] = await toAccountQuoteViews(ctx, [record], (environmentId) => (environmentId === liveId ? 'live' : 'test'));
  return view;
}
