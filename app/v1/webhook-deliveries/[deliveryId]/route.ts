import { defineRoute } from '@/lib/http/define-route';
import { getDelivery } from '@/lib/webhooks/get-delivery';
import { requireDelivery } from '@/lib/webhooks/require-delivery';
import { getDeliveryContract } from '../../webhook-endpoints/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getDeliveryContract, {
  authorize: ({ db, principal, params }) => requireDelivery(db, principal, params.deliveryId),
  handle: async ({ db, access }) => ({ data: { delivery: await getDelivery(db, access.id) } }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
