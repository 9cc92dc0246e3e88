import { saveDraft } from '@/lib/books/save-draft';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { saveDraftContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PUT = defineRoute(saveDraftContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId, 'books:edit'),
  handle: async ({ db, access, body }) => ({ data: await saveDraft(db, access.id, body.artifact) }),
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['PUT']);
