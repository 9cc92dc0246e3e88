import { createVersionAsMember } from '@/lib/books/create-version-as-member';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { createVersionContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createVersionContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId, 'books:publish'),
  handle: async ({ db, principal, access, body, now }) => ({
    data: { version: await createVersionAsMember(db, principal, access.id, body.artifact, now) },
  }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
