import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { createEndpoint } from '@/lib/webhooks/create-endpoint';
import { listEndpoints } from '@/lib/webhooks/list-endpoints';
import { createEndpointContract, listEndpointsContract } from './contract';

export const POST = defineRoute(createEndpointContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'webhooks:manage'),
  handle: async (ctx) => ({ data: await createEndpoint(ctx, ctx.body) }),
});

export const GET = defineRoute(listEndpointsContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'webhooks:manage'),
  handle: async (ctx) => ({ data: { endpoints: await listEndpoints(ctx, { workspaceIds: ctx.access, filter: ctx.query }) } }),
});
