import { defineRoute } from '@/lib/http/define-route';
import { endpointStats } from '@/lib/webhooks/endpoint-stats';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { endpointStatsContract } from '../../contract';

export const GET = defineRoute(endpointStatsContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: { stats: await endpointStats(ctx, { endpoint: ctx.access }) } }),
});
