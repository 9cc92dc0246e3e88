import { defineRoute } from '@/lib/http/define-route';
import { sendTestEvent } from '@/lib/webhooks/send-test-event';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { sendTestEventContract } from '../../contract';

export const POST = defineRoute(sendTestEventContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: { delivery: await sendTestEvent(ctx, { endpoint: ctx.access }) } }),
});
