import { createAccountQuote } from '@/lib/accounts/create-account-quote';
import { listAccountSurfaceQuotes } from '@/lib/accounts/list-account-quotes';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { createAccountQuoteContract, listAccountQuotesContract } from '../../contract';

export const POST = defineRoute(createAccountQuoteContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => {
    const { quote, replayed } = await createAccountQuote(ctx, { idempotencyKey: ctx.headers['idempotency-key'], subject: ctx.headers['quote-subject'], request: ctx.body });
    return { data: quote, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});

export const GET = defineRoute(listAccountQuotesContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await listAccountSurfaceQuotes(ctx, ctx.query) }),
});
