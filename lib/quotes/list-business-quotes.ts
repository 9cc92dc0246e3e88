import { offeringLabels } from '../books/offering-labels';
import type { VerbContext } from '../context/verb-context';
import { listQuotesOfBusiness, type BusinessQuotesQuery } from './store';

export type { BusinessQuotesQuery } from './store';

/**
 * GET /v1/businesses/{id}/quotes: the business's quotes, newest first; the route has checked
 * that the person may read the business, each quote with its offering's label (offeringLabels).
 */
export async function listBusinessQuotes(ctx: VerbContext, { businessId, query }: { businessId: string; query: BusinessQuotesQuery }) {
  const { page, nextCursor } = await listQuotesOfBusiness(ctx.db, businessId, query, ctx.now);
  const labelOf = await offeringLabels(ctx.db, page.map((row) => row.bookVersionId));
  return {
    quotes: page.map(({ bookVersionId, ...row }) => ({ ...row, offeringLabel: labelOf(bookVersionId, row.offeringId), createdAt: row.createdAt.toISOString() })),
    nextCursor,
  };
}
