import { defineRoute } from '@/lib/http/define-route';
import { replayDelivery } from '@/lib/webhooks/manage-deliveries';
import { replayDeliveryContract } from '../../../webhook-endpoints/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(replayDeliveryContract, async ({ db, principal, params, now }) => ({
  data: { delivery: await replayDelivery(db, principal, params.deliveryId, now) },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
