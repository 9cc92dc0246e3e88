import { requireBook } from '@/lib/books/book-authorization';
import { getBookVersion } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getVersionContract } from '../../../contract';

export const GET = defineRoute(getVersionContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: { version: await getBookVersion(ctx, { bookId: ctx.access.id, versionId: ctx.params.versionId }) } }),
});
