import { publishAsMember } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { publishContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(publishContract, async ({ db, principal, params, body, now }) => ({
  data: { book: await publishAsMember(db, principal, params.bookId, body, now) },
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
