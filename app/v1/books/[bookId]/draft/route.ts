import { saveDraft } from '@/lib/books/save-draft';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { saveDraftContract } from '../../contract';

export const PUT = defineRoute(saveDraftContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:edit' }),
  handle: async (ctx) => ({ data: await saveDraft(ctx, { bookId: ctx.access.id, artifact: ctx.body.artifact }) }),
});
