import { defineRoute } from '@/lib/http/define-route';
import { createEndpoint, listEndpoints } from '@/lib/webhooks/manage-endpoints';
import { createEndpointContract, listEndpointsContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createEndpointContract, async ({ db, principal, body, now }) => ({
  data: await createEndpoint(db, principal, body, now),
}));

export const GET = defineRoute(listEndpointsContract, async ({ db, principal, query, now }) => ({
  data: { endpoints: await listEndpoints(db, principal, query, now) },
}));

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
