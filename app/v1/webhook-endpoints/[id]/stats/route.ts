import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { endpointStats } from '@/lib/webhooks/endpoint-stats';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { endpointStatsContract } from '../../contract';

export const GET = defineRoute(endpointStatsContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, access, now }) => ({ data: { stats: await endpointStats(db, access, now) } }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
