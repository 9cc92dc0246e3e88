import { publishAsMember } from '@/lib/books/author-books';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { publishContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(publishContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId, 'books:publish'),
  handle: async ({ db, access, body, now }) => ({ data: { book: await publishAsMember(db, access.id, body, now) } }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
