import { requireBook } from '@/lib/books/book-authorization';
import { listPublicationRecords } from '@/lib/books/list-publication-records';
import { publishWithSafeguard } from '@/lib/books/publish-with-safeguard';
import { defineRoute } from '@/lib/http/define-route';
import { listPublicationsContract, publishContract } from '../../contract';

export const POST = defineRoute(publishContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({ data: { book: await publishWithSafeguard(ctx, { book: ctx.access, request: ctx.body }) } }),
});

export const GET = defineRoute(listPublicationsContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId }),
  handle: async (ctx) => ({ data: await listPublicationRecords(ctx, { bookId: ctx.access.id, query: ctx.query }) }),
});
