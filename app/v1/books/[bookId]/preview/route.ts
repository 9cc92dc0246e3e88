import { previewDraft } from '@/lib/books/preview-draft';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { previewContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(previewContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId),
  handle: async ({ db, access, body }) => ({ data: await previewDraft(db, access.id, body) }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
