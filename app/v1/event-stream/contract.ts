import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

/** An event as its deliveries send it (docs/events.md). */
export const streamedEventSchema = z
  .object({ id: z.uuid(), type: z.string(), version: z.number().int(), created: z.iso.datetime(), businessId: z.uuid().optional(), data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'StreamedEvent', description: 'An event in its delivery envelope: the data of an `event` of the stream.' });

export const streamEventsContract = defineContract({
  operationId: 'streamEvents',
  method: 'GET',
  path: '/v1/event-stream',
  summary: 'The Test environment’s events as they happen, as server-sent events (`events:listen`; Test keys only)',
  description:
    'For a developer’s machine without a public URL (`qps listen --forward-to …`). The first event is `ready` (where the stream starts, the retry schedules); each next one is `event`, with `id` its outbox position and the delivery envelope as data, exactly the body a webhook endpoint would receive. Reconnect with `Last-Event-ID` (or `after`) to miss nothing. A Live key is refused.',
  tags: ['Webhooks'],
  auth: 'api_key',
  scope: 'events:listen',
  query: z.object({ after: z.string().regex(/^\d{1,19}$/).optional().describe('Start after this event id (outbox position) instead of at the newest event.') }),
  headers: z.object({ 'last-event-id': z.string().regex(/^\d{1,19}$/).optional() }),
  success: {
    status: 200,
    description: 'A stream of server-sent events: `ready`, then one `event` per domain event of the key’s environment.',
    schema: streamedEventSchema,
    mediaType: 'text/event-stream',
  },
  errors: ['invalid_api_key', 'insufficient_scope', 'invalid_request'],
});
