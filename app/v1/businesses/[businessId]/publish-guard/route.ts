import { setPublishGuard } from '@/lib/businesses/set-publish-guard';
import { defineRoute } from '@/lib/http/define-route';
import { PUBLISH_GUARD, requireBusinessDuty } from '@/lib/members/business-authorization';
import { setPublishGuardContract } from '../../contract';

export const PUT = defineRoute(setPublishGuardContract, {
  authorize: (ctx) => requireBusinessDuty(ctx, { businessId: ctx.params.businessId, duty: PUBLISH_GUARD }),
  handle: async (ctx) => ({ data: { business: await setPublishGuard(ctx, { access: ctx.access, guard: ctx.body }) } }),
});
