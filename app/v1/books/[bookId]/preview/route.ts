import { previewDraft } from '@/lib/books/author-books';
import { defineRoute } from '@/lib/http/define-route';
import { previewContract } from '../../contract';

export const POST = defineRoute(previewContract, async ({ db, principal, params, body }) => ({
  data: await previewDraft(db, principal, params.bookId, body),
}));
