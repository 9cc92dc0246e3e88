import { requireBook } from '@/lib/books/book-authorization';
import { getBook } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getBookContract } from '../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getBookContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId),
  handle: async ({ db, access }) => ({ data: { book: await getBook(db, access.id) } }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
