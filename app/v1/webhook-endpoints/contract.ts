import { z } from 'zod';
import { defineContract, shownOnceSecret, type OperationTag } from '@/lib/http/contract';
import {
  bulkReplayResultSchema,
  createEndpointRequestSchema,
  deliveryListQuerySchema,
  endpointStatsSchema,
  deliveryViewSchema,
  endpointViewSchema,
  rotateSecretRequestSchema,
  updateEndpointRequestSchema,
} from '@/lib/webhooks/schemas';

const tags: OperationTag[] = ['Webhook endpoints'];
const endpointParams = z.object({ id: z.uuid() });
const deliveryParams = z.object({ deliveryId: z.uuid() });
const withSecret = z.object({ endpoint: endpointViewSchema, secret: shownOnceSecret });
const common = ['unauthorized', 'forbidden', 'not_found'] as const;

export const createEndpointContract = defineContract({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhook-endpoints',
  summary: 'Register an HTTPS endpoint for one environment’s events (`webhooks:manage`)',
  tags,
  auth: 'session',
  body: createEndpointRequestSchema,
  idempotent: { shownOnce: 'secret' },
  success: { status: 201, description: 'The endpoint and its signing secret (shown once).', schema: withSecret },
  errors: [...common, 'invalid_request', 'webhook_target_refused', 'service_unavailable'],
});

export const listEndpointsContract = defineContract({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  path: '/v1/webhook-endpoints',
  summary: 'Webhook endpoints of your workspaces',
  tags,
  auth: 'session',
  query: z.object({ projectId: z.uuid().optional(), environment: z.enum(['test', 'live']).optional() }),
  success: { status: 200, description: 'The endpoints (never their secrets).', schema: z.object({ endpoints: z.array(endpointViewSchema) }) },
  errors: ['unauthorized', 'forbidden', 'invalid_request'],
});

export const getEndpointContract = defineContract({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  path: '/v1/webhook-endpoints/{id}',
  summary: 'One webhook endpoint',
  tags,
  auth: 'session',
  params: endpointParams,
  success: { status: 200, description: 'The endpoint.', schema: z.object({ endpoint: endpointViewSchema }) },
  errors: [...common],
});

export const updateEndpointContract = defineContract({
  operationId: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/v1/webhook-endpoints/{id}',
  summary: 'Change the URL, event types or description, or disable/enable the endpoint',
  tags,
  auth: 'session',
  params: endpointParams,
  body: updateEndpointRequestSchema,
  success: { status: 200, description: 'The endpoint.', schema: z.object({ endpoint: endpointViewSchema }) },
  errors: [...common, 'invalid_request', 'webhook_target_refused'],
});

export const deleteEndpointContract = defineContract({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/v1/webhook-endpoints/{id}',
  summary: 'Delete the endpoint: it receives nothing more; its delivery history is kept',
  tags,
  auth: 'session',
  params: endpointParams,
  success: { status: 200, description: 'The deleted endpoint.', schema: z.object({ endpoint: endpointViewSchema }) },
  errors: [...common],
});

export const rotateEndpointSecretContract = defineContract({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhook-endpoints/{id}/secret-rotation',
  summary: 'New signing secret (shown once); the old one also signs during the overlap',
  tags,
  auth: 'session',
  params: endpointParams,
  body: rotateSecretRequestSchema,
  idempotent: { shownOnce: 'secret' },
  success: { status: 200, description: 'The endpoint and its new secret.', schema: withSecret },
  errors: [...common, 'invalid_request', 'service_unavailable'],
});

export const sendTestEventContract = defineContract({
  operationId: 'sendTestEvent',
  method: 'POST',
  path: '/v1/webhook-endpoints/{id}/test-events',
  summary: 'Queue a signed `webhook.test` delivery to this endpoint only',
  tags,
  auth: 'session',
  params: endpointParams,
  success: { status: 201, description: 'The queued delivery.', schema: z.object({ delivery: deliveryViewSchema }) },
  errors: [...common, 'conflict'],
});

export const listDeliveriesContract = defineContract({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhook-deliveries',
  summary: 'Webhook deliveries with their attempts, newest first (filter by endpoint, event, type, status)',
  tags: ['Webhook deliveries'],
  auth: 'session',
  query: deliveryListQuerySchema,
  success: {
    status: 200,
    description: 'One page; pass `nextCursor` as `cursor` for the next.',
    schema: z.object({ deliveries: z.array(deliveryViewSchema), nextCursor: z.string().nullable() }),
  },
  errors: ['unauthorized', 'forbidden', 'invalid_request'],
});

export const getDeliveryContract = defineContract({
  operationId: 'getWebhookDelivery',
  method: 'GET',
  path: '/v1/webhook-deliveries/{deliveryId}',
  summary: 'One delivery with its attempt history',
  tags: ['Webhook deliveries'],
  auth: 'session',
  params: deliveryParams,
  success: { status: 200, description: 'The delivery.', schema: z.object({ delivery: deliveryViewSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found'],
});

export const replayDeliveryContract = defineContract({
  operationId: 'replayWebhookDelivery',
  method: 'POST',
  path: '/v1/webhook-deliveries/{deliveryId}/replay',
  summary: 'A new pending delivery of the same payload, linked to the original',
  tags: ['Webhook deliveries'],
  auth: 'session',
  params: deliveryParams,
  success: { status: 201, description: 'The new delivery.', schema: z.object({ delivery: deliveryViewSchema }) },
  errors: [...common, 'conflict'],
});

export const replayExhaustedContract = defineContract({
  operationId: 'replayFailedWebhookDeliveries',
  method: 'POST',
  path: '/v1/webhook-endpoints/{id}/replays',
  summary: 'Replay every exhausted or canceled delivery of this endpoint since a moment (`dryRun` counts them first)',
  description:
    'Each is replayed as POST /v1/webhook-deliveries/{id}/replay would: a new pending delivery linked to the original, oldest first, ' +
    'at most 1,000 per call. A delivery with a replay already pending or delivered is left out.',
  tags,
  auth: 'session',
  params: endpointParams,
  body: z
    .strictObject({ since: z.iso.datetime({ offset: true }), dryRun: z.boolean().default(false) })
    .meta({ id: 'BulkReplayRequest' }),
  success: {
    status: 200,
    description: 'How many matched, and the new deliveries.',
    schema: bulkReplayResultSchema,
  },
  errors: [...common, 'invalid_request', 'conflict'],
});

export const endpointStatsContract = defineContract({
  operationId: 'getWebhookEndpointStats',
  method: 'GET',
  path: '/v1/webhook-endpoints/{id}/stats',
  summary: 'How the endpoint answered over the last 24 hours, and its last failure',
  tags,
  auth: 'session',
  params: endpointParams,
  success: {
    status: 200,
    description: 'The figures.',
    schema: z.object({ stats: endpointStatsSchema }),
  },
  errors: [...common],
});
