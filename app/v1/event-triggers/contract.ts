import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { streamedEventSchema } from '@/app/v1/event-stream/contract';
import { TRIGGERED_EVENT_TYPES } from '@/lib/triggers/trigger-event';

export const triggerEventContract = defineContract({
  operationId: 'triggerEvent',
  method: 'POST',
  path: '/v1/event-triggers',
  summary: 'Make an event happen in Test on purpose (`events:trigger`; Test keys only)',
  description:
    'What `qps trigger <type>` calls for the events no ordinary Test call causes. `api_key.*`: a key named after the trigger is made (its secret never shown), rotated without grace for `api_key.rotated`, and revoked. `book_version.published`: the book’s Test version is published to Test again (prices unchanged). `webhook.test`: a test event to one of the environment’s endpoints. The events name the key that triggered them (`triggeredBy`) instead of a person. Quotes (`quote_intent.*`, `account_quote.created`) are triggered by quoting. A Live key is refused.',
  tags: ['Events'],
  auth: 'api_key',
  scope: 'events:trigger',
  body: z.strictObject({
    type: z.enum(TRIGGERED_EVENT_TYPES).describe('The event type to emit.'),
    bookId: z.uuid().optional().describe('`book_version.published`: the book whose Test version is published again.'),
    endpointId: z.uuid().optional().describe('`webhook.test`: the endpoint of the key’s environment to send the test event to.'),
  }),
  success: { status: 201, description: 'Every event the trigger emitted, oldest first, as deliveries send them.', schema: z.object({ events: z.array(streamedEventSchema) }) },
  errors: ['invalid_api_key', 'insufficient_scope', 'invalid_request', 'not_found', 'conflict'],
});
