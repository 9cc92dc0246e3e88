import { compiled } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import { listQuotesOfBusiness, type BusinessQuoteRow, type BusinessQuotesQuery } from './store';

export type { BusinessQuotesQuery } from './store';

/**
 * GET /v1/businesses/{id}/quotes: the business's quotes, newest first; the route has checked
 * that the person may read the business. Each names its offering as the version that priced
 * it does, priced or not (a quote that needs more answers asked for a service all the same).
 */
export async function listBusinessQuotes(ctx: VerbContext, { businessId, query }: { businessId: string; query: BusinessQuotesQuery }) {
  const { page, nextCursor } = await listQuotesOfBusiness(ctx.db, businessId, query, ctx.now);
  const labelOf = await offeringLabels(ctx, page);
  return {
    quotes: page.map(({ bookVersionId, ...row }) => ({ ...row, offeringLabel: labelOf(bookVersionId, row.offeringId), createdAt: row.createdAt.toISOString() })),
    nextCursor,
  };
}

/** Offering labels of the page's versions (a page has few; compiled versions stay in memory). */
async function offeringLabels(ctx: VerbContext, rows: readonly BusinessQuoteRow[]) {
  const versionIds = [...new Set(rows.flatMap((r) => (r.bookVersionId ? [r.bookVersionId] : [])))];
  const books = new Map(await Promise.all(versionIds.map(async (id) => [id, await compiled(ctx.db, id)] as const)));
  // Null for no offering, or one the version does not have: the portal says so in words.
  return (versionId: string | null, offeringId: string) => (versionId && books.get(versionId)?.offerings.get(offeringId)?.label) || null;
}
