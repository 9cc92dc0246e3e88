import { randomUUID } from 'node:crypto';
import { refuseLiveKey } from '../auth/scopes';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import type { Db } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { eventPosition, newestEventPosition, readEvent } from '../events/store';
import { heldLimitError, secondsInWords, STREAM_LIMITS } from '../ratelimit/registry';
import { deliveryEnvelope, type DeliveryEnvelope } from './envelope';
import { processEventStreams, STREAM_LEASE_TTL_SECONDS, type EventStreamHub } from './event-stream-hub';
import { COMPRESSED_RETRY_DELAYS_MS, RETRY_DELAYS_MS } from './retry-schedule';
import { releaseStreamLeases, takeStreamLease } from './store';

/**
 * What a listener is told first: the event the stream starts after (an event of its environment,
 * null when it has none yet), and the retry schedules it may follow.
 */
export type StreamReady = { environment: 'test'; after: string | null; retrySchedule: { standardMs: number[]; compressedMs: number[] } };

/** `after` for a stream from the environment's first event: a listener that began before there was any comes back with it. */
export const STREAM_FROM_BEGINNING = 'beginning';

/**
 * GET /v1/event-stream: a Test environment's events as they happen, as server-sent events, so
 * that a developer's machine can receive them without a public URL (the SDK's `qps listen`
 * forwards them to localhost). Each event is `id: <event id>`, `event: event`, and the delivery
 * envelope as data, exactly the body an endpoint would get; the first is `event: ready`. It starts
 * after `after` (an event of the key's environment: the last one a listener saw, so that a
 * reconnection misses nothing) or after the environment's newest event, and ends when the
 * listener goes away. Positions are the environment's own events: nothing tells how many events
 * other environments have.
 *
 * Bounded per key and per workspace (STREAM_LIMITS, counted across processes and instances) and
 * per process (the hub's places); `hub` is the process's unless a test gives its own.
 */
export async function openEventStream(
  ctx: VerbContext<ApiKeyPrincipal>,
  { after }: { after: string | null },
  hub: EventStreamHub = processEventStreams(ctx.db),
): Promise<ReadableStream<Uint8Array>> {
  const { principal } = ctx;
  refuseLiveListener(principal);
  const start =
    after === STREAM_FROM_BEGINNING
      ? null
      : after === null
        ? await newestEventPosition(ctx.db, principal.environmentId)
        : await eventPosition(ctx.db, principal.environmentId, after);
  if (after !== null && after !== STREAM_FROM_BEGINNING && !start) {
    throw new ServiceError('invalid_request', `after: ${after} is not an event of this key's environment.`, {
      details: { fields: { after: ["not an event of this key's environment"] } },
    });
  }
  const leaseId = await takePlace(ctx, hub);
  const ready: StreamReady = {
    environment: 'test',
    after: start?.id ?? null,
    retrySchedule: { standardMs: [...RETRY_DELAYS_MS], compressedMs: [...COMPRESSED_RETRY_DELAYS_MS] },
  };
  return hub.attach({
    environmentId: principal.environmentId,
    afterSeq: start?.seq ?? '0',
    leaseId,
    ready: `retry: 2000\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`,
  });
}

/** Tries at a slot while another taker of the workspace is counting (each try is a millisecond's statement). */
const TAKE_TRIES = 40;

/**
 * A slot for the key's new stream (429 beyond its key's or its workspace's bound, whichever
 * process holds the others), then a place in this process (503 when it holds all it may).
 */
async function takePlace(ctx: VerbContext<ApiKeyPrincipal>, hub: EventStreamHub): Promise<string> {
  const { principal } = ctx;
  const leaseId = randomUUID();
  const request = {
    id: leaseId,
    apiKeyId: principal.keyId,
    workspaceId: principal.workspaceId,
    holder: hub.holder,
    ttlSeconds: STREAM_LEASE_TTL_SECONDS,
    perKey: STREAM_LIMITS.perKey,
    perWorkspace: STREAM_LIMITS.perWorkspace,
  };
  let taken = await takeStreamLease(ctx.db, request);
  // Spread out, so that a crowd of listeners reconnecting at once (a restart) takes turns.
  for (let tries = 1; taken.outcome === 'busy' && tries < TAKE_TRIES; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    taken = await takeStreamLease(ctx.db, request);
  }
  if (taken.outcome === 'key' || taken.outcome === 'workspace') {
    const [holder, most] = taken.outcome === 'key' ? ['This API key', STREAM_LIMITS.perKey] : ['This workspace', STREAM_LIMITS.perWorkspace];
    throw heldLimitError(
      `${holder} already has ${taken.held} event streams open, the most one ${taken.outcome} may hold at once (${most}). Close one, or retry after ${secondsInWords(taken.freesInSeconds)}.`,
      taken.freesInSeconds,
      most,
    );
  }
  if (taken.outcome === 'busy') {
    throw new ServiceError('service_unavailable', 'Too many event streams of this workspace are opening at this moment. Retry in a second.', { headers: { 'retry-after': '1' } });
  }
  if (!hub.tryReserve()) {
    await releaseStreamLeases(ctx.db, [leaseId]);
    // The connection is closed: a retry on a new one may reach another process of the instance.
    throw new ServiceError('service_unavailable', `This server process holds all the event streams it may (${hub.options.maxStreams}). Retry in a second.`, {
      headers: { 'retry-after': '1', connection: 'close' },
    });
  }
  return leaseId;
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
