import { defineRoute } from '@/lib/http/define-route';
import { getDelivery } from '@/lib/webhooks/manage-deliveries';
import { getDeliveryContract } from '../../webhook-endpoints/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getDeliveryContract, async ({ db, principal, params }) => ({
  data: { delivery: await getDelivery(db, principal, params.deliveryId) },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
