import { businessOverview } from '@/lib/overview/business-overview';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { businessOverviewContract } from '../../contract';

export const GET = defineRoute(businessOverviewContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({ data: { overview: await businessOverview(ctx, { access: ctx.access }) } }),
});
