import { getBookVersion } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { getVersionContract } from '../../../contract';

export const GET = defineRoute(getVersionContract, async ({ db, principal, params }) => ({
  data: { version: await getBookVersion(db, principal, params.bookId, params.versionId) },
}));
