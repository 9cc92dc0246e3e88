import { previewDraft } from '@/lib/books/preview-draft';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { previewContract } from '../../contract';

export const POST = defineRoute(previewContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: await previewDraft(ctx, { bookId: ctx.access.id, request: ctx.body }) }),
});
