import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { STREAM_LIMITS } from '@/lib/ratelimit/registry';
import { STREAM_FROM_BEGINNING } from '@/lib/webhooks/event-stream';

/** An event as its deliveries send it (docs/events.md). */
export const streamedEventSchema = z
  .object({ id: z.uuid(), type: z.string(), version: z.number().int(), created: z.iso.datetime(), businessId: z.uuid().optional(), data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'StreamedEvent', description: 'An event in its delivery envelope: the data of an `event` of the stream.' });

/** Where a stream starts: after an event (its id), or `beginning`, before the environment's first. */
const streamPositionSchema = z.union([z.uuid(), z.literal(STREAM_FROM_BEGINNING)]);

export const streamEventsContract = defineContract({
  operationId: 'streamEvents',
  method: 'GET',
  path: '/v1/event-stream',
  summary: 'The Test environment’s events as they happen, as server-sent events (`events:listen`; Test keys only)',
  description:
    `For a developer’s machine without a public URL (\`qps listen --forward-to …\`). The first event is \`ready\` (\`after\`: the event the stream starts after, the newest of the environment unless \`after\` was given, null when it has none; the retry schedules); each next one is \`event\`, with \`id\` the event’s id and the delivery envelope as data, exactly the body a webhook endpoint would receive. Reconnect with \`Last-Event-ID\` (or \`after\`) to miss nothing. A Live key is refused. At most ${STREAM_LIMITS.perKey} streams per key and ${STREAM_LIMITS.perWorkspace} per workspace are open at once (429 \`rate_limited\` beyond, with \`retry-after\`; a stream’s place is freed when it ends); a server process holding all the streams it may answers 503.`,
  tags: ['Events'],
  auth: 'api_key',
  scope: 'events:listen',
  query: z.object({ after: streamPositionSchema.optional().describe('Start after this event of the key’s environment (its id) instead of after the newest one; `beginning`: from the environment’s first event (a listener that began before there was any).') }),
  headers: z.object({ 'last-event-id': streamPositionSchema.optional().describe('As `after`: the id of the last event received (browsers send it when they reconnect).') }),
  success: {
    status: 200,
    description: 'A stream of server-sent events: `ready`, then one `event` per domain event of the key’s environment.',
    schema: streamedEventSchema,
    mediaType: 'text/event-stream',
  },
  errors: ['invalid_api_key', 'insufficient_scope', 'invalid_request', 'rate_limited', 'service_unavailable'],
});
