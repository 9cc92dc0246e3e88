import { requireBook } from '@/lib/books/book-authorization';
import { getBookVersion } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getVersionContract } from '../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getVersionContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId),
  handle: async ({ db, access, params }) => ({ data: { version: await getBookVersion(db, access.id, params.versionId) } }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
