import { defineRoute } from '@/lib/http/define-route';
import { openEventStream } from '@/lib/webhooks/event-stream';
import { streamEventsContract } from './contract';

export const GET = defineRoute(streamEventsContract, async (ctx) => {
  const stream = await openEventStream(ctx, { after: ctx.headers['last-event-id'] ?? ctx.query.after ?? null });
  return {
    response: new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } }),
  };
});
