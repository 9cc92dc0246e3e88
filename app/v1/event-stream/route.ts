import { ServiceError } from '@/lib/errors/service-error';
import { defineRoute } from '@/lib/http/define-route';
import { eventStream } from '@/lib/webhooks/event-stream';
import { streamEventsContract } from './contract';

export const GET = defineRoute(streamEventsContract, async ({ db, principal, query, headers }) => {
  if (principal.environment !== 'test') {
    throw new ServiceError('invalid_request', 'The event stream is for Test keys only: Live events go to your webhook endpoints. Use a Test key.');
  }
  const stream = eventStream(db, { environmentId: principal.environmentId, after: headers['last-event-id'] ?? query.after ?? null });
  return {
    response: new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } }),
  };
});
