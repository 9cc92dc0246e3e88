import { setBranding } from '@/lib/businesses/set-branding';
import { defineRoute } from '@/lib/http/define-route';
import { BRANDING, requireBusinessSettingsEditor } from '@/lib/members/business-authorization';
import { setBrandingContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PUT = defineRoute(setBrandingContract, {
  authorize: (ctx) => requireBusinessSettingsEditor(ctx, { businessId: ctx.params.businessId, setting: BRANDING }),
  handle: async (ctx) => ({ data: { business: await setBranding(ctx, { access: ctx.access, branding: ctx.body }) } }),
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['PUT']);
