import { getBusinessAccountQuote } from '@/lib/accounts/business-account-quotes';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { getBusinessAccountQuoteContract } from '../../../contract';

export const GET = defineRoute(getBusinessAccountQuoteContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({
    data: { quote: await getBusinessAccountQuote(ctx, { access: ctx.access, environment: 'live', quoteId: ctx.params.quoteId }) },
  }),
});
