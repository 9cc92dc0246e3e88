import { requireAccount } from '@/lib/accounts/require-account';
import { simulateQuote } from '@/lib/accounts/simulate-quote';
import { defineRoute } from '@/lib/http/define-route';
import { simulateContract } from '../../contract';

export const POST = defineRoute(simulateContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await simulateQuote(ctx, ctx.body) }),
});
