import { defineRoute } from '@/lib/http/define-route';
import { getDelivery } from '@/lib/webhooks/get-delivery';
import { requireDelivery } from '@/lib/webhooks/require-delivery';
import { getDeliveryContract } from '../../webhook-endpoints/contract';

export const GET = defineRoute(getDeliveryContract, {
  authorize: (ctx) => requireDelivery(ctx, { deliveryId: ctx.params.deliveryId }),
  handle: async (ctx) => ({ data: { delivery: await getDelivery(ctx, { deliveryId: ctx.access.id }) } }),
});
