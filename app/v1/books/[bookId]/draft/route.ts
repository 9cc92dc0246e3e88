import { saveDraft } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { saveDraftContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PUT = defineRoute(saveDraftContract, async ({ db, principal, params, body }) => ({
  data: await saveDraft(db, principal, params.bookId, body.artifact),
}));

export const { GET, POST, PATCH, DELETE } = methodsNotAllowed(['PUT']);
