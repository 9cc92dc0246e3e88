import { z } from 'zod';
import { EVENT_TYPES } from '../events/event-types';
import { timeIdCursorSchema } from '../db/cursors';
import { endpointUrlProblem } from './target-policy';
import { testFailureSchema } from './test-failures';

const url = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = endpointUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const eventTypes = z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length);

export const endpointViewSchema = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    environment: z.enum(['test', 'live']),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()),
    status: z.enum(['enabled', 'disabled']),
    secretPrefix: z.string(),
    secretLast4: z.string(),
    /** While a rotated secret still signs deliveries too. */
    previousSecretExpiresAt: z.iso.datetime().nullable(),
    /** Test endpoints: the failure each attempt is set to meet instead of being sent (null: attempts are sent). */
    testFailure: testFailureSchema.nullable(),
    /** Test endpoints: retries after seconds (2, 5, 10, 20) instead of 30 s, 5 min, 30 min, 2 h. */
    compressedRetries: z.boolean(),
    targetNote: z
      .string()
      .nullable()
      .describe(
        'Set when the URL names a private, loopback or local target that this deployment allows (`WEBHOOKS_ALLOW_PRIVATE_TARGETS=true` or the embedded database; ' +
          'a deployment that does not answers 422 `webhook_target_refused` for it), or when deliveries to the URL are refused here. Null for a public target.',
      ),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const createEndpointRequestSchema = z
  .strictObject({
    projectId: z.uuid(),
    environment: z.enum(['test', 'live']),
    url,
    eventTypes: eventTypes.optional(),
    description: z.string().max(500).optional(),
  })
  .meta({ id: 'CreateWebhookEndpointRequest' });

export const updateEndpointRequestSchema = z
  .strictObject({
    url: url.optional(),
    eventTypes: eventTypes.optional(),
    description: z.string().max(500).nullable().optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
    /** Test endpoints only: fail each attempt this way instead of sending it; null switches it off. */
    testFailure: testFailureSchema.nullable().optional(),
    /** Test endpoints only: retry after seconds instead of minutes and hours. */
    compressedRetries: z.boolean().optional(),
  })
  .meta({ id: 'UpdateWebhookEndpointRequest' });

const DEFAULT_OVERLAP_MINUTES = 1440;
export const rotateSecretRequestSchema = z
  .strictObject({ overlapMinutes: z.number().int().min(0).max(10_080).default(DEFAULT_OVERLAP_MINUTES) })
  .default({ overlapMinutes: DEFAULT_OVERLAP_MINUTES })
  .meta({ id: 'RotateWebhookSecretRequest' });

const attemptViewSchema = z
  .object({
    number: z.number().int(),
    state: z
      .enum(['sending', 'ended', 'lost'])
      .describe(
        '`sending`: recorded before its request was sent, no answer yet; `ended`: its answer or failure is recorded; ' +
          '`lost`: the process sending it stopped before recording an outcome (`error` says so; the request may or may not have reached the receiver).',
      ),
    /** When it started (for one still `sending` or `lost`: when it was recorded as starting). */
    startedAt: z.iso.datetime(),
    /** Null until its outcome is recorded. */
    latencyMs: z.number().int().nullable(),
    responseStatus: z.number().int().nullable(),
    responseExcerpt: z.string().nullable(),
    /** What was sent (the signature included: it is not a secret) and what the receiver answered with. */
    requestHeaders: z.record(z.string(), z.string()).nullable(),
    responseHeaders: z.record(z.string(), z.string()).nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

/** `canceled`: its endpoint was deleted before it was sent (terminal; the spec leaves other states to us). */
export const deliveryStatusSchema = z.enum(['pending', 'succeeded', 'exhausted', 'canceled']);

export const deliveryViewSchema = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.uuid(),
    eventType: z.string(),
    status: deliveryStatusSchema,
    attemptCount: z.number().int(),
    nextAttemptAt: z.iso.datetime().nullable(),
    replayOfId: z.uuid().nullable(),
    /** When deleting its endpoint canceled it; null unless `status` is `canceled`. */
    canceledAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    attempts: z.array(attemptViewSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListQuerySchema = z.object({
  endpointId: z.uuid().optional(),
  eventId: z.uuid().optional(),
  eventType: z.string().max(100).optional(),
  status: deliveryStatusSchema.optional(),
  failing: z
    .stringbool()
    .optional()
    .describe('`true`: only deliveries that failed and have not arrived: retrying after a failed attempt, or given up (`exhausted`).'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: timeIdCursorSchema.optional(),
});

export const endpointStatsSchema = z
  .object({
    since: z.iso.datetime(),
    attempts: z.number().int(),
    succeeded: z.number().int(),
    /** Share of attempts answered 2xx, in percent; null without attempts. */
    successRate: z.number().nullable(),
    p50LatencyMs: z.number().int().nullable(),
    p95LatencyMs: z.number().int().nullable(),
    /** Deliveries waiting for a retry after a failed attempt. */
    retrying: z.number().int(),
    exhausted: z.number().int(),
    lastFailure: z
      .object({ at: z.iso.datetime(), deliveryId: z.uuid(), eventType: z.string(), responseStatus: z.number().int().nullable(), error: z.string().nullable() })
      .nullable(),
  })
  .meta({ id: 'WebhookEndpointStats' });
export type EndpointStats = z.infer<typeof endpointStatsSchema>;

export const bulkReplayResultSchema = z
  .object({ matched: z.number().int(), replayed: z.number().int(), deliveryIds: z.array(z.uuid()) })
  .meta({ id: 'BulkReplayResult' });
export type BulkReplayResult = z.infer<typeof bulkReplayResultSchema>;

export type EndpointView = z.infer<typeof endpointViewSchema>;
export type DeliveryView = z.infer<typeof deliveryViewSchema>;
export type UpdateEndpointRequest = z.output<typeof updateEndpointRequestSchema>;
