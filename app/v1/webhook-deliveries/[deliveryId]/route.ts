import { defineRoute } from '@/lib/http/define-route';
import { getDelivery } from '@/lib/webhooks/manage-deliveries';
import { getDeliveryContract } from '../../webhook-endpoints/contract';

export const GET = defineRoute(getDeliveryContract, async ({ db, principal, params }) => ({
  data: { delivery: await getDelivery(db, principal, params.deliveryId) },
}));
