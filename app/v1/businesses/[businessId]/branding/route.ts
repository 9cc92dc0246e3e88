import { setBranding } from '@/lib/businesses/set-branding';
import { defineRoute } from '@/lib/http/define-route';
import { BRANDING, requireBusinessDuty } from '@/lib/members/business-authorization';
import { setBrandingContract } from '../../contract';

export const PUT = defineRoute(setBrandingContract, {
  authorize: (ctx) => requireBusinessDuty(ctx, { businessId: ctx.params.businessId, duty: BRANDING }),
  handle: async (ctx) => ({ data: { business: await setBranding(ctx, { access: ctx.access, branding: ctx.body }) } }),
});
