import { listBusinessAccountQuotes } from '@/lib/accounts/business-account-quotes';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { listBusinessAccountQuotesContract } from '../../contract';

export const GET = defineRoute(listBusinessAccountQuotesContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  // A member route: the business's Live connection (spec 9); Test quotes are at /v1/account-quotes.
  handle: async (ctx) => ({ data: await listBusinessAccountQuotes(ctx, { access: ctx.access, environment: 'live', query: ctx.query }) }),
});
