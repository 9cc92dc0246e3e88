import { getBook } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getBookContract } from '../contract';

export const GET = defineRoute(getBookContract, async ({ db, principal, params }) => ({
  data: { book: await getBook(db, principal, params.bookId) },
}));
