import { defineRoute } from '@/lib/http/define-route';
import { getEnvironmentQuote } from '@/lib/quotes/list-environment-quotes';
import { getQuoteContract } from '../contract';

export const GET = defineRoute(getQuoteContract, {
  handle: async (ctx) => ({ data: await getEnvironmentQuote(ctx, ctx.params.id) }),
});
