import { defineRoute } from '@/lib/http/define-route';
import { deleteEndpoint } from '@/lib/webhooks/delete-endpoint';
import { toEndpointView } from '@/lib/webhooks/endpoint-view';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { updateEndpoint } from '@/lib/webhooks/update-endpoint';
import { deleteEndpointContract, getEndpointContract, updateEndpointContract } from '../contract';

export const GET = defineRoute(getEndpointContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async ({ access, now }) => ({ data: { endpoint: toEndpointView(access, now) } }),
});

export const PATCH = defineRoute(updateEndpointContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: { endpoint: await updateEndpoint(ctx, { endpointId: ctx.access.id, changes: ctx.body }) } }),
});

// The verb checks again under its lock on the endpoint: a concurrent deletion answers 404.
export const DELETE = defineRoute(deleteEndpointContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: { endpoint: await deleteEndpoint(ctx, { endpointId: ctx.access.id }) } }),
});
