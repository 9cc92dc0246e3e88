import { defineRoute } from '@/lib/http/define-route';
import { replayDelivery } from '@/lib/webhooks/replay-delivery';
import { requireDelivery } from '@/lib/webhooks/require-delivery';
import { replayDeliveryContract } from '../../../webhook-endpoints/contract';

export const POST = defineRoute(replayDeliveryContract, {
  authorize: (ctx) => requireDelivery(ctx, { deliveryId: ctx.params.deliveryId }),
  handle: async (ctx) => ({ data: { delivery: await replayDelivery(ctx, { delivery: ctx.access }) } }),
});
