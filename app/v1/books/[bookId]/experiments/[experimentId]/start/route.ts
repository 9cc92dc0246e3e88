import { requireBook } from '@/lib/books/book-authorization';
import { startExperiment } from '@/lib/experiments/start-stop-experiment';
import { defineRoute } from '@/lib/http/define-route';
import { startExperimentContract } from '../../contract';

export const POST = defineRoute(startExperimentContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({ data: { experiment: await startExperiment(ctx, { book: ctx.access, experimentId: ctx.params.experimentId }) } }),
});
