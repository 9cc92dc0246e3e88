import { requireBook } from '@/lib/books/book-authorization';
import { listPublicationRecords } from '@/lib/books/list-publication-records';
import { publishWithSafeguard } from '@/lib/books/publish-with-safeguard';
import { defineRoute } from '@/lib/http/define-route';
import { listPublicationsContract, publishContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(publishContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId, 'books:publish'),
  handle: async ({ db, principal, access, body, now }) => ({ data: { book: await publishWithSafeguard(db, principal, access, body, now) } }),
});

export const GET = defineRoute(listPublicationsContract, {
  authorize: ({ db, principal, params }) => requireBook(db, principal, params.bookId),
  handle: async ({ db, access, query }) => ({ data: await listPublicationRecords(db, access.id, query) }),
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
