import { setBranding } from '@/lib/businesses/set-branding';
import { defineRoute } from '@/lib/http/define-route';
import { setBrandingContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PUT = defineRoute(setBrandingContract, async ({ db, principal, params, body, now }) => {
  return { data: { business: await setBranding(db, principal, params.businessId, body, now) } };
});

export const { GET, POST, PATCH, DELETE } = methodsNotAllowed(['PUT']);
