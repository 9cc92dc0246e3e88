import { defineRoute } from '@/lib/http/define-route';
import { eventStream, refuseLiveListener } from '@/lib/webhooks/event-stream';
import { streamEventsContract } from './contract';

export const GET = defineRoute(streamEventsContract, async ({ db, principal, query, headers }) => {
  refuseLiveListener(principal);
  const stream = eventStream(db, { environmentId: principal.environmentId, after: headers['last-event-id'] ?? query.after ?? null });
  return {
    response: new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } }),
  };
});
