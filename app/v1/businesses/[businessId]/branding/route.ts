import { setBranding } from '@/lib/businesses/set-branding';
import { defineRoute } from '@/lib/http/define-route';
import { BRANDING, requireBusinessSettingsEditor } from '@/lib/members/business-authorization';
import { setBrandingContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PUT = defineRoute(setBrandingContract, {
  authorize: ({ db, principal, params }) => requireBusinessSettingsEditor(db, principal, params.businessId, BRANDING),
  handle: async ({ db, principal, access, body, now }) => ({ data: { business: await setBranding(db, principal, access, body, now) } }),
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['PUT']);
