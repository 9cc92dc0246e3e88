import { createVersionAsMember } from '@/lib/books/create-version-as-member';
import { requireBook } from '@/lib/books/book-authorization';
import { defineRoute } from '@/lib/http/define-route';
import { createVersionContract } from '../../contract';

export const POST = defineRoute(createVersionContract, {
  authorize: (ctx) => requireBook(ctx, { bookId: ctx.params.bookId, permission: 'books:publish' }),
  handle: async (ctx) => ({
    data: { version: await createVersionAsMember(ctx, { bookId: ctx.access.id, artifact: ctx.body.artifact }) },
  }),
});
