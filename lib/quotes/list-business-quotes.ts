import type { VerbContext } from '../context/verb-context';
import { listQuotesOfBusiness, type BusinessQuotesQuery } from './store';

export type { BusinessQuotesQuery } from './store';

/**
 * GET /v1/businesses/{id}/quotes: the business's quotes, newest first; the route has checked
 * that the person may read the business.
 */
export async function listBusinessQuotes(ctx: VerbContext, { businessId, query }: { businessId: string; query: BusinessQuotesQuery }) {
  const { page, nextCursor } = await listQuotesOfBusiness(ctx.db, businessId, query, ctx.now);
  return { quotes: page.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), nextCursor };
}
