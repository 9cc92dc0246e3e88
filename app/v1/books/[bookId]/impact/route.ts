import { requireBook } from '@/lib/books/book-authorization';
import { runImpact } from '@/lib/books/run-impact';
import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { impactContract } from '../../contract';

export const POST = defineRoute(impactContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId, 'books:publish'),
  handle: async ({ db, access, body, now }) => ({ progress: (report) => runImpact(db, access, body, { now, onProgress: report }) }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
