import { requireBook } from '@/lib/books/book-authorization';
import { getExperiment } from '@/lib/experiments/read-experiments';
import { defineRoute } from '@/lib/http/define-route';
import { getExperimentContract } from '../contract';

export const GET = defineRoute(getExperimentContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: { experiment: await getExperiment(ctx, ctx.access, ctx.params.experimentId) } }),
});
