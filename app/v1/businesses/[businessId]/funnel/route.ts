import { businessFunnel } from '@/lib/funnel/business-funnel';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { businessFunnelContract } from '../../contract';

export const GET = defineRoute(businessFunnelContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({
    data: { funnel: await businessFunnel(ctx, { access: ctx.access, offeringId: ctx.query.offeringId ?? null, weeks: ctx.query.weeks }) },
  }),
});
