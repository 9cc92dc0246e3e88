import { requireBook } from '@/lib/books/book-authorization';
import { createExperiment } from '@/lib/experiments/create-experiment';
import { listExperiments } from '@/lib/experiments/read-experiments';
import { defineRoute } from '@/lib/http/define-route';
import { createExperimentContract, listExperimentsContract } from './contract';

export const POST = defineRoute(createExperimentContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({ data: { experiment: await createExperiment(ctx, { book: ctx.access, request: ctx.body }) }, status: 201 }),
});

export const GET = defineRoute(listExperimentsContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: { experiments: await listExperiments(ctx, ctx.access) } }),
});
