import { defineRoute } from '@/lib/http/define-route';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { replayExhaustedDeliveries } from '@/lib/webhooks/replay-exhausted-deliveries';
import { replayExhaustedContract } from '../../contract';

export const POST = defineRoute(replayExhaustedContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: await replayExhaustedDeliveries(ctx, { endpoint: ctx.access, ...ctx.body }) }),
});
