import { getBookVersion } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getVersionContract } from '../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getVersionContract, async ({ db, principal, params }) => ({
  data: { version: await getBookVersion(db, principal, params.bookId, params.versionId) },
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET']);
