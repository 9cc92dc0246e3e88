import { refuseLiveKey } from '../auth/scopes';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Db } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { lastEventSeq, readEvent, readEventsAfter } from '../events/store';
import { logger } from '../observability/logger';
import { deliveryBody, deliveryEnvelope, type DeliveryEnvelope } from './envelope';
import { COMPRESSED_RETRY_DELAYS_MS, RETRY_DELAYS_MS } from './retry-schedule';

/** How often an open stream looks for new events, and how often it says it is still there. */
const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;
const BATCH = 100;

/** What a listener is told first: where the stream starts, and the retry schedules it may follow. */
export type StreamReady = { environment: 'test'; after: string; retrySchedule: { standardMs: number[]; compressedMs: number[] } };

/**
 * GET /v1/event-stream: a Test environment's events as they happen, as server-sent events, so
 * that a developer's machine can receive them without a public URL (the SDK's `qps listen`
 * forwards them to localhost). Each event is `id: <outbox position>`, `event: event`, and the
 * delivery envelope as data, exactly the body an endpoint would get; the first is `event: ready`.
 * It starts after `after` (the last id a listener saw, so a reconnection misses nothing) or at
 * the newest event, and ends when the listener goes away.
 */
export function eventStream(db: Db, { environmentId, after }: { environmentId: string; after: string | null }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let cursor = after ?? (await lastEventSeq(db));
      let lastWrite = Date.now();
      const send = (text: string) => {
        if (closed) return;
        controller.enqueue(encoder.encode(text));
        lastWrite = Date.now();
      };
      const ready: StreamReady = { environment: 'test', after: cursor, retrySchedule: { standardMs: [...RETRY_DELAYS_MS], compressedMs: [...COMPRESSED_RETRY_DELAYS_MS] } };
      send(`retry: 2000\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
      const tick = async () => {
        let full = false;
        try {
          const events = await readEventsAfter(db, environmentId, cursor, BATCH);
          for (const event of events) {
            send(`id: ${event.seq}\nevent: event\ndata: ${deliveryBody(event)}\n\n`);
            cursor = event.seq;
          }
          full = events.length === BATCH;
          if (Date.now() - lastWrite >= HEARTBEAT_MS) send(': still here\n\n');
        } catch (error) {
          logger.warn({ err: error }, 'event stream: reading events failed; trying again');
        }
        if (!closed) timer = setTimeout(tick, full ? 0 : POLL_MS);
      };
      timer = setTimeout(tick, 0);
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
    },
  });
}

/** The stream and its events are for Test keys only: Live events go to webhook endpoints. */
export function refuseLiveListener(principal: ApiKeyPrincipal): void {
  refuseLiveKey(principal, 'The event stream is for Test keys only: Live events go to your webhook endpoints.');
}

/** GET /v1/events/{id}: one event of the key's Test environment in its delivery envelope (`qps resend`). */
export async function findTestEvent(db: Db, principal: ApiKeyPrincipal, eventId: string): Promise<DeliveryEnvelope> {
  refuseLiveListener(principal);
  const event = await readEvent(db, principal.environmentId, eventId);
  if (!event) throw new ServiceError('not_found', `Event ${eventId} is not an event of this key's environment.`);
  return deliveryEnvelope(event);
}
