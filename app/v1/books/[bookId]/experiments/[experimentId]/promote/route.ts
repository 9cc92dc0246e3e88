import { requireBook } from '@/lib/books/book-authorization';
import { promoteExperiment } from '@/lib/experiments/promote-experiment';
import { defineRoute } from '@/lib/http/define-route';
import { promoteExperimentContract } from '../../contract';

export const POST = defineRoute(promoteExperimentContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({
    data: { experiment: await promoteExperiment(ctx, { book: ctx.access, experimentId: ctx.params.experimentId, request: ctx.body }) },
  }),
});
