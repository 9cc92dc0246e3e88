import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { createBookAsMember } from '@/lib/books/create-book-as-member';
import { listBooks } from '@/lib/books/read-books';
import { defineRoute } from '@/lib/http/define-route';
import { createBookContract, listBooksContract } from './contract';

export const GET = defineRoute(listBooksContract, async (ctx) => ({
  data: { books: await listBooks(ctx, ctx.query) },
}));

export const POST = defineRoute(createBookContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'books:edit'),
  handle: async (ctx) => ({ data: { book: await createBookAsMember(ctx, ctx.body) } }),
});
