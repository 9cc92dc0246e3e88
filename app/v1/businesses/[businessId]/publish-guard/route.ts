import { setPublishGuard } from '@/lib/businesses/set-publish-guard';
import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { PUBLISH_GUARD, requireBusinessSettingsEditor } from '@/lib/members/business-authorization';
import { setPublishGuardContract } from '../../contract';

export const PUT = defineRoute(setPublishGuardContract, {
  authorize: ({ db, principal, params }) => requireBusinessSettingsEditor(db, principal, params.businessId, PUBLISH_GUARD),
  handle: async ({ db, access, body, now }) => ({ data: { business: await setPublishGuard(db, access, body, now) } }),
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['PUT']);
