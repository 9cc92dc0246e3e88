import { previewDraft } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { previewContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(previewContract, async ({ db, principal, params, body }) => ({
  data: await previewDraft(db, principal, params.bookId, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
