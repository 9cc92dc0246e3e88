import { z } from 'zod';
import { EVENT_TYPES } from '@/lib/events/event-types';
import { defineContract } from '@/lib/http/contract';

export const listEventTypesContract = defineContract({
  operationId: 'listEventTypes',
  method: 'GET',
  path: '/v1/event-types',
  summary: 'Every event type webhooks deliver, when it is sent, and an example delivery',
  tags: ['Event types'],
  auth: 'anonymous',
  success: {
    status: 200,
    description: 'The catalogue (docs/events.md), each with an example in the delivery envelope.',
    schema: z.object({
      eventTypes: z.array(
        z
          .object({
            type: z.enum(EVENT_TYPES),
            environment: z.string().meta({ description: 'Which environment’s endpoints receive it.' }),
            meaning: z.string(),
            example: z.object({ id: z.uuid(), type: z.enum(EVENT_TYPES), version: z.literal(1), created: z.iso.datetime(), businessId: z.uuid().optional(), data: z.record(z.string(), z.unknown()) }),
          })
          .meta({ id: 'EventType' }),
      ),
    }),
  },
  errors: [],
});
