import { getAccountSurfaceQuote } from '@/lib/accounts/list-account-quotes';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { getAccountQuoteContract } from '../../../contract';

export const GET = defineRoute(getAccountQuoteContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await getAccountSurfaceQuote(ctx, ctx.params.quoteId) }),
});
