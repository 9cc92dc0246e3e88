import { getQuoteSpec } from '@/lib/accounts/get-quote-spec';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { quoteSpecContract } from '../../contract';

export const GET = defineRoute(quoteSpecContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await getQuoteSpec(ctx) }),
});
