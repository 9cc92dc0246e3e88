import { createAccountQuote } from '@/lib/accounts/create-account-quote';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { createAccountQuoteContract } from '../../contract';

export const POST = defineRoute(createAccountQuoteContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => {
    const { quote, replayed } = await createAccountQuote(ctx, { idempotencyKey: ctx.headers['idempotency-key'], request: ctx.body });
    return { data: quote, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});
