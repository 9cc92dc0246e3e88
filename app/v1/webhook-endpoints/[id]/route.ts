import { defineRoute } from '@/lib/http/define-route';
import { deleteEndpoint, getEndpoint, updateEndpoint } from '@/lib/webhooks/manage-endpoints';
import { deleteEndpointContract, getEndpointContract, updateEndpointContract } from '../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(getEndpointContract, async ({ db, principal, params, now }) => ({
  data: { endpoint: await getEndpoint(db, principal, params.id, now) },
}));

export const PATCH = defineRoute(updateEndpointContract, async ({ db, principal, params, body, now }) => ({
  data: { endpoint: await updateEndpoint(db, principal, params.id, body, now) },
}));

export const DELETE = defineRoute(deleteEndpointContract, async ({ db, principal, params, now }) => ({
  data: { endpoint: await deleteEndpoint(db, principal, params.id, now) },
}));

export const { POST, PUT, OPTIONS } = methodsNotAllowed(['GET', 'PATCH', 'DELETE']);
