import { defineRoute } from '@/lib/http/define-route';
import { replayDelivery } from '@/lib/webhooks/replay-delivery';
import { requireDelivery } from '@/lib/webhooks/require-delivery';
import { replayDeliveryContract } from '../../../webhook-endpoints/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(replayDeliveryContract, {
  authorize: ({ db, principal, params }) => requireDelivery(db, principal, params.deliveryId),
  handle: async ({ db, access, now }) => ({ data: { delivery: await replayDelivery(db, access, now) } }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
