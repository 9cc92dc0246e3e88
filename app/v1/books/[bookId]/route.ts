import { requireBook } from '@/lib/books/book-authorization';
import { getBook } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getBookContract } from '../contract';

export const GET = defineRoute(getBookContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: { book: await getBook(ctx, { bookId: ctx.access.id }) } }),
});
