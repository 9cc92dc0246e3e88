import { listBusinessAccountQuotes } from '@/lib/accounts/business-account-quotes';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { listBusinessAccountQuotesContract } from '../../contract';

export const GET = defineRoute(listBusinessAccountQuotesContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({ data: await listBusinessAccountQuotes(ctx, { access: ctx.access, query: ctx.query }) }),
});
