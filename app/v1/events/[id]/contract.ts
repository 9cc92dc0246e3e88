import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { streamedEventSchema } from '@/app/v1/event-stream/contract';

export const getEventContract = defineContract({
  operationId: 'getEvent',
  method: 'GET',
  path: '/v1/events/{id}',
  summary: 'One event of the Test environment, as its deliveries send it (`events:listen`; Test keys only)',
  description: 'What `qps resend <event id>` sends again to a local URL. A Live key is refused; an event of another environment is not found.',
  tags: ['Events'],
  auth: 'api_key',
  scope: 'events:listen',
  params: z.object({ id: z.uuid() }),
  success: { status: 200, description: 'The event in its delivery envelope.', schema: z.object({ event: streamedEventSchema }) },
  errors: ['invalid_api_key', 'insufficient_scope', 'invalid_request', 'not_found'],
});
