import { getBook } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getBookContract } from '../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getBookContract, async ({ db, principal, params }) => ({
  data: { book: await getBook(db, principal, params.bookId) },
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET']);
