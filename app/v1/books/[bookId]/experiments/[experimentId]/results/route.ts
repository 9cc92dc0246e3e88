import { requireBook } from '@/lib/books/book-authorization';
import { experimentResults } from '@/lib/experiments/experiment-results';
import { defineRoute } from '@/lib/http/define-route';
import { getExperimentResultsContract } from '../../contract';

export const GET = defineRoute(getExperimentResultsContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: { results: await experimentResults(ctx, ctx.access, ctx.params.experimentId) } }),
});
