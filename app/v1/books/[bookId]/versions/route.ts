import { createVersionAsMember } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { createVersionContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createVersionContract, async ({ db, principal, params, body, now }) => ({
  data: { version: await createVersionAsMember(db, principal, params.bookId, body.artifact, now) },
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
