// Group `webhooks`: the in-process runner delivering to a local HTTPS receiver: idle latency,
// then bursts to 1 and to FAN_ENDPOINTS endpoints, one with a service process killed mid-burst.
import { randomUUID } from 'node:crypto';
import { demoExample } from '../../lib/books/demo-book';
import { testContext } from '../../lib/testing/factories';
import type { Receiver } from '../../lib/testing/https-receiver';
import { childProcesses, lastSenderTo } from '../../lib/testing/processes';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { startReceiver } from '../../lib/testing/https-receiver';
import { LEASE_MS } from '../../lib/webhooks/claims';
import { verifyWebhookSignature } from '../../lib/webhooks/signature';
import { log, sleep, type Context, type Usage } from '../context';
import { startSampler } from '../procfs';
import { summarize, type LatencySummary } from '../stats';
import { waitForOutbox } from './http';

export type WebhookResult = {
  idle: { events: number; delayMs: LatencySummary; requestToDeliveryMs: LatencySummary };
  bursts: {
    name: string;
    endpoints: number;
    events: number;
    deliveries: number;
    seconds: number;
    deliveriesPerSecond: number;
    /** Between the first and the last arrival: the runner's steady rate. */
    steadyDeliveriesPerSecond: number;
    delayMs: LatencySummary;
    badSignatures: number;
    duplicates: number;
    /** Pairs of one endpoint's arrivals in the wrong outbox order (first arrivals of each delivery): several sends in flight may arrive interleaved. */
    inversions: number;
    /** One endpoint's first attempts that started before an earlier event's (spec 6.5's order, as the window keeps it). */
    startInversions: number;
    /** Deliveries that never arrived. */
    lost: number;
    /** Median attempt latency (the receiver's round trip as the service measured it). */
    roundTripMs: number;
    /** A service process killed with SIGKILL mid-burst: when, and when each duplicate came. */
    kill?: { atDelivered: number; duplicateDelaysMs: number[]; lastArrivalAfterKillMs: number };
    usage: Usage;
  }[];
  /** One endpoint behind a slow receiver: the window's throughput and whether a stream drains. */
  slow: {
    name: string;
    receiverMs: number;
    events: number;
    /** Events offered per second (0: all at once). */
    offeredPerSecond: number;
    seconds: number;
    deliveriesPerSecond: number;
    /** From an event's insert to its arrival: a stream that drains keeps this flat. */
    delayMs: LatencySummary;
    startInversions: number;
    lost: number;
  }[];
};

/** Endpoints the fan-out bursts deliver to (issue 16: at least 300 deliveries/s across 8). */
export const FAN_ENDPOINTS = 8;

export async function runWebhookCases(ctx: Context, receiver: Receiver): Promise<WebhookResult> {
  const { hooks, hooksPerson } = ctx.setup;
  const asHooksPerson = testContext(ctx.db.prisma, { principal: hooksPerson.principal });
  const secrets = new Map<string, string>();
  // The Test environment's endpoints each take their own event type: a case's events reach its endpoint only.
  const single = await createEndpoint(asHooksPerson, { projectId: hooks.projectId, environment: 'test', url: `${receiver.url}?endpoint=single`, eventTypes: ['quote_intent.succeeded'] });
  secrets.set(single.endpoint.id, single.secret);
  for (let i = 0; i < FAN_ENDPOINTS; i++) {
    const fan = await createEndpoint(asHooksPerson, { projectId: hooks.projectId, environment: 'live', url: `${receiver.url}?endpoint=fan${i}` });
    secrets.set(fan.endpoint.id, fan.secret);
  }
  log('webhooks: waiting for the outbox of the load cases to be dispatched');
  await waitForOutbox(ctx);

  // Idle: one real quote at a time (its outbox event is written by the request), delivered by
  // the in-process runner of an otherwise idle service.
  log(`webhooks: idle latency, ${ctx.settings.idleEvents} single events`);
  const delays: number[] = [];
  const requestToDelivery: number[] = [];
  let eventData: unknown = null;
  for (let i = 0; i < ctx.settings.idleEvents; i++) {
    await sleep(300 + Math.random() * 500); // not aligned with the runner's 200 ms tick
    const before = receiver.received.length;
    const sentAt = Date.now();
    const response = await fetch(`${ctx.next.url}/v1/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hooks.keys.test}` },
      body: JSON.stringify({ businessId: hooks.businessId, bookId: hooks.bookId, ...demoExample, idempotencyKey: `idle-${randomUUID()}` }),
    });
    if (response.status !== 201) throw new Error(`webhook idle quote: ${response.status} ${await response.text()}`);
    eventData = ((await response.json()) as { data: unknown }).data;
    const deadline = Date.now() + 15_000;
    while (receiver.received.length === before) {
      if (Date.now() > deadline) throw new Error('no delivery within 15 s of an idle event');
      await sleep(2);
    }
    const arrival = receiver.received[before];
    const eventId = String(arrival.headers['service-event-id']);
    const { rows } = await ctx.admin.query<{ created_at: Date }>('SELECT created_at FROM outbox_events WHERE id = $1', [eventId]);
    delays.push(arrival.receivedAt.getTime() - rows[0].created_at.getTime());
    requestToDelivery.push(arrival.receivedAt.getTime() - sentAt);
  }
  await sleep(500);

  const bursts: WebhookResult['bursts'] = [];
  const burst = async (name: string, environmentId: string, endpoints: number, events: number, killAt?: number) => {
    log(`webhooks: ${name}: ${events} events x ${endpoints} endpoint(s)`);
    const expected = events * endpoints;
    const before = receiver.received.length;
    const sampler = startSampler({ service: ctx.next.process.pid!, postgres: ctx.postmasterPid() });
    const insertedAt = Date.now();
    let killedAt = 0;
    let killedAtDelivered = 0;
    await ctx.admin.query(
      `INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, business_id, data, created_at)
       SELECT gen_random_uuid(), 'quote_intent.succeeded', 1, $1, $2, $3, $4, $5::json, clock_timestamp()
       FROM generate_series(1, $6)`,
      [hooks.workspaceId, hooks.projectId, environmentId, hooks.businessId, JSON.stringify(eventData), events],
    );
    const deadline = Date.now() + 300_000;
    const distinct = () => new Set(receiver.received.slice(before).map((a) => String(a.headers['service-delivery-id']))).size;
    while (distinct() < expected) {
      if (Date.now() > deadline) throw new Error(`${name}: ${distinct()} of ${expected} deliveries within 300 s`);
      if (killAt !== undefined && !killedAt && receiver.received.length - before >= killAt * expected) {
        // One service process (a cluster worker, with its job runner) dies mid-burst; the primary starts another.
        // The process that is sending: the one with connections open to the receiver.
        const workers = childProcesses(ctx.next.process.pid!);
        const sender = lastSenderTo(new URL(receiver.url).port);
        const worker = workers.find((pid) => pid === sender) ?? workers[0];
        if (!worker) throw new Error('no service worker process to kill');
        process.kill(worker, 'SIGKILL');
        killedAt = Date.now();
        killedAtDelivered = receiver.received.length - before;
        log(`webhooks: killed service process ${worker} (SIGKILL) after ${killedAtDelivered} deliveries`);
      }
      await sleep(20);
    }
    // Anything the killed process had in flight is sent again once its lease runs out: wait that long for duplicates.
    if (killedAt) await sleep(Math.max(0, killedAt + LEASE_MS + 5_000 - Date.now()));
    const usage = sampler.stop();
    const arrivals = receiver.received.slice(before);
    const eventIds = [...new Set(arrivals.map((a) => String(a.headers['service-event-id'])))];
    const deliveryIds = arrivals.map((a) => String(a.headers['service-delivery-id']));
    const created = new Map(
      (await ctx.admin.query<{ id: string; created_at: Date }>('SELECT id::text, created_at FROM outbox_events WHERE id = ANY($1::uuid[])', [eventIds])).rows.map(
        (r) => [r.id, r.created_at.getTime()],
      ),
    );
    const endpointOf = new Map(
      (await ctx.admin.query<{ id: string; endpoint_id: string }>('SELECT id::text, endpoint_id::text FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [deliveryIds])).rows.map(
        (r) => [r.id, r.endpoint_id],
      ),
    );
    let badSignatures = 0;
    const pairs = new Set<string>();
    for (const a of arrivals) {
      const endpointId = endpointOf.get(String(a.headers['service-delivery-id']));
      const secret = endpointId ? secrets.get(endpointId) : undefined;
      const check = secret
        ? verifyWebhookSignature({ rawBody: a.rawBody, header: String(a.headers['service-signature']), secret, toleranceSeconds: 300 })
        : { ok: false };
      if (!check.ok) badSignatures++;
      pairs.add(`${a.headers['service-event-id']}/${endpointId}`);
    }
    const times = arrivals.map((a) => a.receivedAt.getTime());
    const first = Math.min(...times);
    const last = Math.max(...times);
    // Order: each endpoint's first arrivals against the outbox order of their events.
    const seqOf = new Map(
      (await ctx.admin.query<{ id: string; seq: string }>('SELECT id::text, seq::text FROM outbox_events WHERE id = ANY($1::uuid[])', [eventIds])).rows.map((r) => [
        r.id,
        Number(r.seq),
      ]),
    );
    const seen = new Set<string>();
    const perEndpoint = new Map<string, number[]>();
    const firstArrivalOf = new Map<string, number>();
    for (const a of arrivals) {
      const deliveryId = String(a.headers['service-delivery-id']);
      if (seen.has(deliveryId)) continue;
      seen.add(deliveryId);
      firstArrivalOf.set(deliveryId, a.receivedAt.getTime());
      const endpointId = endpointOf.get(deliveryId) ?? '?';
      perEndpoint.set(endpointId, [...(perEndpoint.get(endpointId) ?? []), seqOf.get(String(a.headers['service-event-id'])) ?? 0]);
    }
    let inversions = 0;
    for (const [endpointId, seqs] of perEndpoint) {
      const before = inversions;
      for (let i = 0; i < seqs.length; i++) for (let j = i + 1; j < seqs.length; j++) if (seqs[i] > seqs[j]) inversions++;
      if (inversions > before) {
        const at = seqs.findIndex((seq, i) => i > 0 && seq < seqs[i - 1]);
        log(`webhooks: ${name}: endpoint ${endpointId} out of order at arrival ${at}: seqs ${seqs.slice(Math.max(0, at - 3), at + 3).join(', ')}`);
      }
    }
    const startInversions = await firstAttemptsOutOfOrder(ctx, [...seen]);
    const duplicateArrivals = arrivals.filter((a, i) => arrivals.findIndex((b) => b.headers['service-delivery-id'] === a.headers['service-delivery-id']) !== i);
    const { rows: latencies } = await ctx.admin.query<{ latency_ms: number }>(
      'SELECT latency_ms FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) AND latency_ms IS NOT NULL',
      [[...seen]],
    );
    const lastFirstArrival = Math.max(...firstArrivalOf.values());
    bursts.push({
      name,
      endpoints,
      events,
      deliveries: arrivals.length,
      seconds: (lastFirstArrival - insertedAt) / 1000,
      deliveriesPerSecond: seen.size / ((lastFirstArrival - insertedAt) / 1000),
      steadyDeliveriesPerSecond: (seen.size - 1) / Math.max(0.001, (lastFirstArrival - first) / 1000),
      delayMs: summarize(arrivals.map((a) => a.receivedAt.getTime() - (created.get(String(a.headers['service-event-id'])) ?? Number.NaN))),
      badSignatures,
      duplicates: arrivals.length - pairs.size,
      inversions,
      startInversions,
      lost: expected - seen.size,
      roundTripMs: summarize(latencies.map((l) => l.latency_ms)).p50,
      kill: killedAt
        ? {
            atDelivered: killedAtDelivered,
            duplicateDelaysMs: duplicateArrivals.map((a) => a.receivedAt.getTime() - killedAt),
            lastArrivalAfterKillMs: last - killedAt,
          }
        : undefined,
      usage,
    });
    await sleep(1_000);
  };
  await burst('burst, 1 endpoint', hooks.environments.test, 1, Math.round(ctx.settings.burstEvents / 4));
  await burst(`burst, ${FAN_ENDPOINTS} endpoints`, hooks.environments.live, FAN_ENDPOINTS, Math.round(ctx.settings.burstEvents / FAN_ENDPOINTS));
  await burst(`burst, ${FAN_ENDPOINTS} endpoints, a service process killed`, hooks.environments.live, FAN_ENDPOINTS, Math.round(ctx.settings.burstEvents / FAN_ENDPOINTS), 0.3);
  const slow = [
    await slowEndpoint(ctx, asHooksPerson, { name: 'burst, 1 endpoint, receiver answering in 200 ms', receiverMs: 200, type: 'book_version.published', events: 1_000, perSecond: 0 }),
    await slowEndpoint(ctx, asHooksPerson, { name: 'stream of 10/s, 1 endpoint, receiver answering in 2 s', receiverMs: 2_000, type: 'api_key.created', events: 300, perSecond: 10 }),
  ];
  return { idle: { events: delays.length, delayMs: summarize(delays), requestToDeliveryMs: summarize(requestToDelivery) }, bursts, slow };
}

/**
 * One endpoint behind a receiver that answers in `receiverMs`: `events` inserted at once
 * (`perSecond` 0) or at that rate, until the last has arrived.
 */
async function slowEndpoint(
  ctx: Context,
  asHooksPerson: Parameters<typeof createEndpoint>[0],
  c: { name: string; receiverMs: number; type: string; events: number; perSecond: number },
): Promise<WebhookResult['slow'][number]> {
  log(`webhooks: ${c.name}: ${c.events} events${c.perSecond ? ` at ${c.perSecond}/s` : ''}`);
  const { hooks } = ctx.setup;
  const receiver = await startReceiver(() => ({ status: 200, afterMs: c.receiverMs }));
  try {
    const { endpoint } = await createEndpoint(asHooksPerson, { projectId: hooks.projectId, environment: 'test', url: receiver.url, eventTypes: [c.type] });
    const insert = (n: number) =>
      ctx.admin.query(
        `INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, data, created_at)
         SELECT gen_random_uuid(), $1, 1, $2, $3, $4, '{}'::json, clock_timestamp() FROM generate_series(1, $5)`,
        [c.type, hooks.workspaceId, hooks.projectId, hooks.environments.test, n],
      );
    const startedAt = Date.now();
    if (c.perSecond === 0) await insert(c.events);
    else for (let i = 0; i < c.events; i++) {
      await insert(1);
      await sleep(Math.max(0, startedAt + ((i + 1) * 1000) / c.perSecond - Date.now()));
    }
    const deadline = Date.now() + 300_000;
    while (new Set(receiver.received.map((a) => String(a.headers['service-delivery-id']))).size < c.events && Date.now() < deadline) await sleep(20);
    const firsts = new Map<string, number>();
    for (const a of receiver.received) if (!firsts.has(String(a.headers['service-delivery-id']))) firsts.set(String(a.headers['service-delivery-id']), a.receivedAt.getTime());
    const { rows } = await ctx.admin.query<{ id: string; created_at: Date }>(
      'SELECT d.id::text, e.created_at FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id WHERE d.endpoint_id = $1',
      [endpoint.id],
    );
    const delays = rows.filter((r) => firsts.has(r.id)).map((r) => firsts.get(r.id)! - r.created_at.getTime());
    const last = Math.max(...firsts.values());
    return {
      name: c.name,
      receiverMs: c.receiverMs,
      events: c.events,
      offeredPerSecond: c.perSecond,
      seconds: (last - startedAt) / 1000,
      deliveriesPerSecond: firsts.size / ((last - startedAt) / 1000),
      delayMs: summarize(delays),
      startInversions: await firstAttemptsOutOfOrder(ctx, rows.map((r) => r.id)),
      lost: c.events - firsts.size,
    };
  } finally {
    await receiver.stop();
  }
}

/**
 * First attempts of these deliveries that started before the first attempt of an earlier event to
 * the same endpoint. An attempt is recorded before its request is sent and gets its send time with
 * its outcome: this waits (15 s at most) until none is still `sending`, and counts attempts that
 * ended (a lost one's time is when it was recorded, not sent).
 */
async function firstAttemptsOutOfOrder(ctx: Context, deliveryIds: string[]): Promise<number> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { rows } = await ctx.admin.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_attempts WHERE state = 'sending' AND delivery_id = ANY($1::uuid[])`, [deliveryIds]);
    if (rows[0].n === '0') break;
    await sleep(100);
  }
  const { rows } = await ctx.admin.query<{ n: string }>(
    `SELECT count(*) FILTER (WHERE started_at < previous)::text AS n FROM (
       SELECT a.started_at, max(a.started_at) OVER (PARTITION BY d.endpoint_id ORDER BY e.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previous
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = d.event_id
       WHERE a.number = 1 AND a.state = 'ended' AND a.delivery_id = ANY($1::uuid[])) t`,
    [deliveryIds],
  );
  return Number(rows[0].n);
}
