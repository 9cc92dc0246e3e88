import { businessOverview } from '@/lib/businesses/business-overview';
import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { businessOverviewContract } from '../../contract';

export const GET = defineRoute(businessOverviewContract, {
  authorize: ({ db, principal, params }) => requireBusinessReader(db, principal, params.businessId),
  handle: async ({ db, access, now }) => ({ data: { overview: await businessOverview(db, access, now) } }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
