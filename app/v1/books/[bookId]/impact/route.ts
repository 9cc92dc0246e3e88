import { requireBook } from '@/lib/books/book-authorization';
import { runImpact } from '@/lib/books/run-impact';
import { defineRoute } from '@/lib/http/define-route';
import { impactContract } from '../../contract';

export const POST = defineRoute(impactContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({ progress: (report) => runImpact(ctx, { book: ctx.access, request: ctx.body, onProgress: report }) }),
});
