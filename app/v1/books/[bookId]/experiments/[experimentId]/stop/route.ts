import { requireBook } from '@/lib/books/book-authorization';
import { stopExperiment } from '@/lib/experiments/start-stop-experiment';
import { defineRoute } from '@/lib/http/define-route';
import { stopExperimentContract } from '../../contract';

export const POST = defineRoute(stopExperimentContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({ data: { experiment: await stopExperiment(ctx, { book: ctx.access, experimentId: ctx.params.experimentId }) } }),
});
