import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { ServiceError } from '../errors/service-error';
import type { AccountQuoteView } from './account-schemas';
import { toAccountQuoteViews } from './account-quote-views';
import { findProjectEnvironment } from '../tenancy/store';
import { findAccountQuote, listAccountQuotes, type AccountQuotesQuery } from './store';

export type BusinessAccountQuotesQuery = Pick<AccountQuotesQuery, 'state' | 'review' | 'limit' | 'cursor'> & { order?: AccountQuotesQuery['order'] };

/**
 * Whose quotes: the environment of the project the business is connected to. Member routes
 * pass `live` (spec 9: they use the business's Live connection, no parameter switches it); the
 * workspace routes (`/v1/account-quotes`) let an integrator pick Test too.
 */
export type QuotesEnvironment = 'test' | 'live';

/** The environment's id in the business's connected project, or null when it has no connection. */
export async function connectedEnvironmentId(ctx: VerbContext, access: BusinessAccess, environment: QuotesEnvironment): Promise<string | null> {
  if (!access.connection) return null;
  if (environment === 'live') return access.connection.liveEnvironmentId;
  return (await findProjectEnvironment(ctx.db, { projectId: access.connection.projectId, kind: 'test' }))?.id ?? null;
}

/**
 * The quotes integrations made on the account surface for the project the business is connected
 * to, in one environment (the route has checked that the person may read them). Quotes waiting
 * for review are a queue, oldest first; the rest newest first.
 */
export async function listBusinessAccountQuotes(
  ctx: VerbContext,
  { access, environment, query }: { access: BusinessAccess; environment: QuotesEnvironment; query: BusinessAccountQuotesQuery },
): Promise<{ quotes: AccountQuoteView[]; nextCursor: string | null }> {
  const environmentId = await connectedEnvironmentId(ctx, access, environment);
  if (!access.connection || !environmentId) return { quotes: [], nextCursor: null };
  const order = query.order ?? (query.review === 'pending' ? 'oldest' : 'newest');
  const rows = await listAccountQuotes(ctx.db, { ...query, order, projectId: access.connection.projectId, environmentId });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { quotes: await toAccountQuoteViews(ctx, page, () => environment), nextCursor };
}

/** One of them, in that environment (`either`: whichever it is in), or 404: a quote of the other environment is not there. */
export async function getBusinessAccountQuote(
  ctx: VerbContext,
  { access, environment, quoteId }: { access: BusinessAccess; environment: QuotesEnvironment | 'either'; quoteId: string },
): Promise<AccountQuoteView> {
  const record = access.connection ? await findAccountQuote(ctx.db, { id: quoteId, projectId: access.connection.projectId }) : null;
  const inEnvironment = environment === 'either' || (record !== null && record.environmentId === (await connectedEnvironmentId(ctx, access, environment)));
  if (!record || !access.connection || !inEnvironment) throw new ServiceError('not_found', `No quote ${quoteId} for this business.`);
  const liveId = access.connection.liveEnvironmentId;
  const [view] = await toAccountQuoteViews(ctx, [record], (environmentId) => (environmentId === liveId ? 'live' : 'test'));
  return view;
}
