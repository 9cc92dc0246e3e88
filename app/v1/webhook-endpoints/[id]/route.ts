import { defineRoute } from '@/lib/http/define-route';
import { deleteEndpoint } from '@/lib/webhooks/delete-endpoint';
import { toEndpointView } from '@/lib/webhooks/endpoint-view';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { updateEndpoint } from '@/lib/webhooks/update-endpoint';
import { deleteEndpointContract, getEndpointContract, updateEndpointContract } from '../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getEndpointContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ access, now }) => ({ data: { endpoint: toEndpointView(access, now) } }),
});

export const PATCH = defineRoute(updateEndpointContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, access, body, now }) => ({ data: { endpoint: await updateEndpoint(db, access.id, body, now) } }),
});

// The verb checks again under its lock on the endpoint: a concurrent deletion answers 404.
export const DELETE = defineRoute(deleteEndpointContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, principal, access, now }) => ({ data: { endpoint: await deleteEndpoint(db, principal, access.id, now) } }),
});

export const { POST, PUT, OPTIONS } = methodsNotAllowed(['GET', 'PATCH', 'DELETE']);
