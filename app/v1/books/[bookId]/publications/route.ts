import { publishAsMember } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { publishContract } from '../../contract';

export const POST = defineRoute(publishContract, async ({ db, principal, params, body, now }) => ({
  data: { book: await publishAsMember(db, principal, params.bookId, body, now) },
}));
