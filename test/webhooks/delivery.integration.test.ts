import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../lib/events/event-types';
import { recordEvent } from '../../lib/events/record-event';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { heldAnswers, signedBy, startReceiver, type Behaviour, type Receiver } from '../../lib/testing/https-receiver';
import { COMPRESSED_RETRY_DELAYS_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../lib/webhooks/retry-schedule';
import { claimDueDeliveries, releaseEndpoint } from '../../lib/webhooks/claims';
import { deliverGroup } from '../../lib/webhooks/deliver-due-webhooks';
import { SendWindow, webhookWindow } from '../../lib/webhooks/send-window';
import { dispatchOutboxEvents } from '../../lib/webhooks/dispatch-outbox';
import { DISPATCH_LOCK, writeAttempts } from '../../lib/webhooks/store';
import { replayDelivery } from '../../lib/webhooks/replay-delivery';
import { requireDelivery } from '../../lib/webhooks/require-delivery';
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { replayExhaustedDeliveries } from '../../lib/webhooks/replay-exhausted-deliveries';
import { endpointStats } from '../../lib/webhooks/endpoint-stats';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';
import { rotateEndpointSecret } from '../../lib/webhooks/rotate-endpoint-secret';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { webhookTestbed } from '../support/webhook-testbed';
import { eventually } from '../../lib/testing/eventually';
import { createPublicQuote } from '../../lib/quotes/create-public-quote';
import { testContext } from '../../lib/testing/factories';
import { setEnv } from '../support/settings';

const { size: SEND_WINDOW, claimPerEndpoint: CLAIM_PER_ENDPOINT } = webhookWindow();

/**
 * The delivery worker against real HTTPS receivers, on a database of its own, driven by a
 * clock the test controls (the real service runs the same functions on the real clock).
 */
const T0 = new Date('2031-01-01T00:00:00Z');
const bed = webhookTestbed(T0, { settled: true });
const { receivers, system, asAdmin, at } = bed;

async function receiver(behaviour?: (index: number) => Behaviour) {
  const r = await startReceiver(behaviour);
  receivers.push(r);
  return r;
}

async function endpointFor(r: Receiver, options: { environment?: 'test' | 'live'; eventTypes?: string[] } = {}) {
  return createEndpoint(asAdmin(), { projectId: bed.tenant.projectId, environment: options.environment ?? 'live', url: r.url, eventTypes: options.eventTypes });
}

async function emit(type: EventType, environment: 'test' | 'live', data: Record<string, unknown> = {}, now = T0) {
  return recordEvent({ db: bed.db, now }, { type, workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments[environment], businessId: bed.tenant.businessId, data });
}


describe('webhook delivery', () => {
  it('delivers a signed envelope with the event id header, and records the attempt', async () => {
    const r = await receiver();
    const { endpoint, secret } = await endpointFor(r);
    const eventId = await emit('quote_intent.succeeded', 'live', { quoteIntent: { id: 'q1' } });
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got.headers['service-event-id']).toBe(eventId);
    expect(got.headers['content-type']).toBe('application/json');
    expect(signedBy(got, secret)).toBe(true);
    expect(signedBy(got, 'whsec_wrong')).toBe(false);
    expect(JSON.parse(got.rawBody)).toEqual({
      id: eventId,
      type: 'quote_intent.succeeded',
      version: 1,
      created: T0.toISOString(),
      businessId: bed.tenant.businessId,
      data: { quoteIntent: { id: 'q1' } },
    });
    const delivery = await bed.db.webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId: endpoint.id }, include: { attempts: true } });
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 1, nextAttemptAt: null });
    expect(delivery.attempts[0]).toMatchObject({ number: 1, responseStatus: 200, responseExcerpt: 'ok', error: null });
    // The attempt keeps the headers it sent and those the receiver answered with.
    expect(delivery.attempts[0].requestHeaders).toMatchObject({ 'Service-Event-Id': eventId, 'Service-Attempt': '1', 'content-type': 'application/json' });
    expect(delivery.attempts[0].responseHeaders).toMatchObject({ 'content-type': 'text/plain' });
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it("sends a quote's event with the receipt's computation put back, as the quote answered, though the event row holds no copy of it", async () => {
    const r = await receiver();
    const { endpoint } = await endpointFor(r, { eventTypes: ['quote_intent.succeeded'] });
    const { result } = await createPublicQuote(
      { ...testContext(bed.db, { now: T0 }), startedAt: performance.now() },
      { businessId: bed.tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } },
    );
    const stored = await bed.db.outboxEvent.findFirstOrThrow({ where: { subjectId: result.quoteIntent.id } });
    expect(stored.receiptId).toBe(result.quoteReceipt.id);
    expect((stored.data as { quoteReceipt: { computation: unknown } }).quoteReceipt.computation).toBeNull();
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(1);
    // Byte for byte: the same keys in the same order as the quote's own answer.
    const sent = JSON.parse(r.received[0].rawBody) as { data: typeof result };
    expect(JSON.stringify(sent.data)).toBe(JSON.stringify(result));
    expect(sent.data.quoteReceipt.computation?.totalMinor).toBeGreaterThan(0);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('retries on the fixed schedule and exhausts after the fifth failure', async () => {
    const r = await receiver(() => 500);
    const { endpoint } = await endpointFor(r);
    const eventId = await emit('api_key.created', 'live');
    // How long each sending pass took in real time: an attempt is stamped within its pass, and on
    // a loaded machine a pass can take far longer than the milliseconds it takes when idle.
    const passMs: number[] = [];
    const pass = async (now?: Date) => {
      const started = performance.now();
      await runWebhookJobs(system(now));
      passMs.push(Math.ceil(performance.now() - started));
    };
    await pass();
    expect(r.received).toHaveLength(1);
    // Each attempt is stamped when it is sent (the claim's time plus the real time since, a
    // millisecond or two on an idle machine): the next one is due its delay after that stamp.
    const nextAttemptAt = async () => (await bed.db.webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId: endpoint.id } })).nextAttemptAt!;
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      const due = await nextAttemptAt();
      await runWebhookJobs(system(new Date(due.getTime() - 1000))); // not yet due
      expect(r.received).toHaveLength(i + 1);
      await pass(due);
      expect(r.received).toHaveLength(i + 2);
      expect(due.getTime() - T0.getTime()).toBeGreaterThanOrEqual(RETRY_DELAYS_MS.slice(0, i + 1).reduce((a, b) => a + b, 0));
    }
    await runWebhookJobs(system(at(9_330_000 + 24 * 3600_000)));
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
    const delivery = await bed.db.webhookDelivery.findFirstOrThrow({
      where: { eventId, endpointId: endpoint.id },
      include: { attempts: { orderBy: { number: 'asc' } } },
    });
    expect(delivery).toMatchObject({ status: 'exhausted', attemptCount: 5, nextAttemptAt: null });
    // the fixed schedule: 30 s, 5 min, 30 min and 2 h after the previous attempt ended (to within the time its pass took to send it)
    const startedAt = delivery.attempts.map((a) => a.startedAt.getTime());
    const gaps = delivery.attempts.slice(1).map((a, i) => a.startedAt.getTime() - (startedAt[i] + delivery.attempts[i].latencyMs!));
    gaps.forEach((gap, i) => expect(gap - RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(0));
    gaps.forEach((gap, i) => expect(gap - RETRY_DELAYS_MS[i]).toBeLessThanOrEqual(passMs[i + 1]));
    expect(startedAt[0] - T0.getTime()).toBeLessThanOrEqual(passMs[0]);
    expect(delivery.attempts.every((a) => a.responseStatus === 500 && a.responseExcerpt === 'receiver says no')).toBe(true);
    // every attempt carried the same body
    expect(new Set(r.received.map((x) => x.rawBody)).size).toBe(1);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('counts a 10-second silence and a closed connection as failures, stamping each attempt when it is sent; each retry waits its delay from the end of the attempt', async () => {
    // a window full of silent deliveries (widened once the second had waited BACKLOG_MS): the next one waits for a slot, ten seconds in
    const r = await receiver((i) => (i < SEND_WINDOW ? 'hang' : 'close'));
    const { endpoint, secret } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const silent = [];
    for (let i = 0; i < SEND_WINDOW; i++) silent.push(await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) }));
    const dropped = await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
    const started = Date.now();
    await runWebhookJobs(system());
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    const first = await bed.db.webhookAttempt.findMany({ where: { deliveryId: { in: silent.map((d) => d.id) } } });
    const [second] = await bed.db.webhookAttempt.findMany({ where: { deliveryId: dropped.id } });
    expect(first).toHaveLength(SEND_WINDOW);
    // When the first of them ran out its ten seconds (measured from its own start, not the pass's,
    // which on a loaded machine can begin seconds before the first send).
    const firstEnded = Math.min(...first.map((a) => a.startedAt.getTime() + a.latencyMs!));
    for (const attempt of first) {
      expect(attempt).toMatchObject({ responseStatus: null, error: 'no answer within 10 s' });
      // sent before the first one's ten seconds ran out (the window widened once the second had waited BACKLOG_MS)
      expect(attempt.startedAt.getTime()).toBeLessThan(firstEnded);
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(9_900);
    }
    expect(second.responseStatus).toBeNull();
    expect(second.error).toMatch(/socket hang up|ECONNRESET/);
    // sent ten seconds into the pass, and signed with that time, not the pass's start
    expect(second.startedAt.getTime() - T0.getTime()).toBeGreaterThanOrEqual(9_900);
    const t = Number(/t=(\d+)/.exec(String(r.received[SEND_WINDOW].headers['service-signature']))![1]);
    expect(t).toBe(Math.floor(second.startedAt.getTime() / 1000));
    expect(signedBy(r.received[SEND_WINDOW], secret)).toBe(true);
    for (const delivery of [...silent, dropped]) {
      const pending = await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, include: { attempts: true } });
      expect(pending).toMatchObject({ status: 'pending', attemptCount: 1, leasedUntil: null });
      // the silent ones ended ten seconds after they started: their retry is 30 s after that, not after the start
      const [attempt] = pending.attempts;
      expect(pending.nextAttemptAt!.getTime() - attempt.startedAt.getTime()).toBe(attempt.latencyMs! + 30_000);
    }
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 90_000); // 33 test events, then a pass of at least ten seconds: much longer on a loaded machine

  it('a retry after a timed-out attempt waits its delay from the end of that attempt, on the compressed schedule too', async () => {
    const r = await receiver();
    const { endpoint } = await endpointFor(r, { environment: 'test', eventTypes: ['webhook.test'] });
    await updateEndpoint(asAdmin(), { endpointId: endpoint.id, changes: { compressedRetries: true } });
    const delivery = await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
    const [group] = await claimDueDeliveries(system());
    // What the sender records for an attempt started at T0 that got no answer in 10 s.
    const [row] = await writeAttempts(
      bed.db,
      [{ deliveryId: delivery.id, leaseToken: group.leaseToken, number: group.deliveries[0].started_number!, startedAt: T0, latencyMs: 10_000, responseStatus: null, responseExcerpt: null, error: 'no answer within 10 s', acknowledged: false, requestHeaders: {}, responseHeaders: null }],
      { maxAttempts: MAX_ATTEMPTS, retryDelaysMs: RETRY_DELAYS_MS, compressedDelaysMs: COMPRESSED_RETRY_DELAYS_MS },
    );
    expect(row).toMatchObject({ number: 1, status: 'pending' });
    const due = (await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).nextAttemptAt!;
    expect(due).toEqual(at(10_000 + COMPRESSED_RETRY_DELAYS_MS[0])); // 2 s after the attempt ended, not 2 s after it started
    await releaseEndpoint(system(), { endpointId: endpoint.id, owner: group.owner });
    expect(await claimDueDeliveries(system(at(10_000 + COMPRESSED_RETRY_DELAYS_MS[0] - 1)))).toEqual([]);
    await runWebhookJobs(system(due));
    expect(r.received.map((x) => x.headers['service-attempt'])).toEqual(['2']);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it(`claims at most ${CLAIM_PER_ENDPOINT} deliveries of one endpoint at a time, and skips endpoints still being sent to`, async () => {
    const slow = await receiver();
    const other = await receiver();
    const a = (await endpointFor(slow, { eventTypes: ['webhook.test'] })).endpoint;
    const b = (await endpointFor(other, { eventTypes: ['webhook.test'] })).endpoint;
    for (let i = 0; i < CLAIM_PER_ENDPOINT + 2; i++) await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: a.id }) });
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: b.id }) });
    const owner = randomUUID();
    const groups = await claimDueDeliveries(system(), { busyEndpoints: [], owner });
    expect(groups.map((g) => [g.endpointId, g.deliveryIds.length]).sort()).toEqual([[a.id, CLAIM_PER_ENDPOINT], [b.id, 1]].sort());
    // another worker gets neither endpoint while this one holds their send leases
    expect(await claimDueDeliveries(system(), { busyEndpoints: [] })).toEqual([]);
    // the claimed ones are leased: the owner's second claim gets only the rest, and none of a busy endpoint's
    expect(await claimDueDeliveries(system(), { busyEndpoints: [a.id], owner })).toEqual([]);
    const rest = await claimDueDeliveries(system(), { busyEndpoints: [], owner });
    expect(rest.map((g) => [g.endpointId, g.deliveryIds.length])).toEqual([[a.id, 2]]);
    for (const group of [...groups, ...rest]) await deliverGroup(system(), { group });
    for (const group of [...groups, ...rest]) await releaseEndpoint(system(), { endpointId: group.endpointId, owner, lastLease: group.leasedUntil });
    expect(slow.received).toHaveLength(CLAIM_PER_ENDPOINT + 2);
    expect(other.received).toHaveLength(1);
    for (const endpoint of [a, b]) await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('claims for at most maxEndpoints endpoints at a time, those with the oldest due events first', async () => {
    const r = await receiver();
    const endpoints = [];
    for (let i = 0; i < 3; i++) endpoints.push((await endpointFor(r, { eventTypes: ['webhook.test'] })).endpoint);
    const [first, second, third] = endpoints;
    // Oldest events: the third endpoint's, then the first's (twice), then the second's.
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: third.id }) });
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: first.id }) });
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: first.id }) });
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: second.id }) });
    const owner = randomUUID();
    const groups = await claimDueDeliveries(system(), { maxEndpoints: 2, owner });
    expect(groups.map((g) => [g.endpointId, g.deliveryIds.length])).toEqual([
      [third.id, 1],
      [first.id, 2],
    ]);
    const rest = await claimDueDeliveries(system(), { maxEndpoints: 2, owner });
    expect(rest.map((g) => [g.endpointId, g.deliveryIds.length])).toEqual([[second.id, 1]]);
    for (const group of [...groups, ...rest]) await deliverGroup(system(), { group });
    expect(r.received).toHaveLength(4);
    for (const endpoint of endpoints) await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('replays a delivery as a new one linked to the original, which never changes', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 202 : 503));
    const { endpoint, secret } = await endpointFor(r, { eventTypes: ['api_key.revoked'] });
    await emit('api_key.revoked', 'live', { apiKey: { id: 'k1' } });
    await runWebhookJobs(system(at(0)));
    // Each retry when it falls due: attempts are stamped when sent (the pass's time plus the real
    // time since), so a fixed clock of T0 + the delays could run a moment before one is due.
    for (let retry = 0; retry < RETRY_DELAYS_MS.length; retry++) {
      const due = (await bed.db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).nextAttemptAt!;
      await runWebhookJobs(system(due));
    }
    const original = await bed.db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id }, include: { attempts: true } });
    expect(original.status).toBe('exhausted');
    const elapsed = original.updatedAt.getTime() - T0.getTime();

    healthy = true;
    const replay = await replayDelivery(system(at(elapsed + 1000)), { delivery: await requireDelivery(asAdmin(), { deliveryId: original.id }) });
    expect(replay).toMatchObject({ status: 'pending', replayOfId: original.id, eventId: original.eventId, attemptCount: 0 });
    await runWebhookJobs(system(at(elapsed + 1000)));
    expect(r.received).toHaveLength(6);
    expect(r.received[5].rawBody).toBe(r.received[0].rawBody);
    expect(r.received[5].headers['service-event-id']).toBe(original.eventId);
    expect(signedBy(r.received[5], secret)).toBe(true);
    const after = await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: original.id }, include: { attempts: true } });
    expect(after).toEqual(original);
    expect((await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: replay.id } })).status).toBe('succeeded');
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('replays every exhausted delivery since a moment, once, after counting them; and says how the endpoint has answered', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 500));
    const { endpoint } = await endpointFor(r, { eventTypes: ['business.branding_updated'] });
    for (let i = 0; i < 3; i++) await emit('business.branding_updated', 'live', { n: i });
    let elapsed = 0;
    await runWebhookJobs(system(at(elapsed)));
    for (const delay of RETRY_DELAYS_MS) await runWebhookJobs(system(at((elapsed += delay))));
    // The endpoint's sends take turns, so the three may not all be due in the same pass: let them finish.
    while ((await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'pending' } })) > 0) {
      await runWebhookJobs(system(at((elapsed += 3 * 3600_000))));
    }
    const found = await requireEndpoint(asAdmin(), { endpointId: endpoint.id });
    const failing = await endpointStats(system(at(elapsed)), { endpoint: found });
    expect(failing).toMatchObject({ succeeded: 0, successRate: 0, retrying: 0, exhausted: 3 });
    expect(failing.attempts).toBeGreaterThan(0); // those of the last 24 hours of this clock
    expect(failing.lastFailure).toMatchObject({ eventType: 'business.branding_updated', responseStatus: 500 });
    expect(failing.p50LatencyMs).toBeGreaterThanOrEqual(0);

    const since = T0.toISOString();
    expect(await replayExhaustedDeliveries(system(at(elapsed)), { endpoint: found, since, dryRun: true })).toEqual({ matched: 3, replayed: 0, deliveryIds: [] });
    expect((await replayExhaustedDeliveries(system(at(elapsed)), { endpoint: found, since: at(elapsed).toISOString(), dryRun: true })).matched).toBe(0);
    healthy = true;
    const replayed = await replayExhaustedDeliveries(system(at(elapsed + 1000)), { endpoint: found, since, dryRun: false });
    expect(replayed).toMatchObject({ matched: 3, replayed: 3 });
    // A second run finds each one already replayed: nothing is sent twice.
    expect((await replayExhaustedDeliveries(system(at(elapsed + 1000)), { endpoint: found, since, dryRun: false })).replayed).toBe(0);
    await runWebhookJobs(system(at(elapsed + 1000)));
    expect(r.received).toHaveLength(18);
    const replays = await bed.db.webhookDelivery.findMany({ where: { id: { in: replayed.deliveryIds } } });
    expect(replays.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(new Set(replays.map((d) => d.replayOfId)).size).toBe(3);
    const healed = await endpointStats(system(at(elapsed + 2000)), { endpoint: found });
    expect(healed).toMatchObject({ attempts: failing.attempts + 3, succeeded: 3, exhausted: 3 });
    expect(healed.successRate).toBe(Math.round((3 * 1000) / (failing.attempts + 3)) / 10);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('starts the sends to an endpoint in outbox order, keeps Test and Live apart, and honours event type filters', async () => {
    const live = await receiver();
    const test = await receiver();
    const onlyPublished = await receiver();
    const endpoints = [
      await endpointFor(live, { environment: 'live' }),
      await endpointFor(test, { environment: 'test' }),
      await endpointFor(onlyPublished, { environment: 'live', eventTypes: ['book_version.published'] }),
    ];
    const liveEvents: string[] = [];
    for (let i = 0; i < 6; i++) liveEvents.push(await emit(i % 3 === 0 ? 'book_version.published' : 'quote_intent.failed', 'live', { n: i }));
    const testEvent = await emit('quote_intent.failed', 'test', { n: 'test' });
    await runWebhookJobs(system());
    // several sends are in flight at once, so arrivals may interleave; the sends start in order
    expect(live.received.map((x) => x.headers['service-event-id']).sort()).toEqual([...liveEvents].sort());
    const attempts = await bed.db.webhookAttempt.findMany({ where: { delivery: { endpointId: endpoints[0].endpoint.id } }, include: { delivery: true } });
    const startedAt = liveEvents.map((eventId) => attempts.find((a) => a.delivery.eventId === eventId)!.startedAt.getTime());
    expect(startedAt).toEqual([...startedAt].sort((x, y) => x - y));
    expect(test.received.map((x) => x.headers['service-event-id'])).toEqual([testEvent]);
    expect(onlyPublished.received.map((x) => JSON.parse(x.rawBody).data.n).sort()).toEqual([0, 3]);

    // a window of one sends them one after another: they arrive in outbox order
    const more: string[] = [];
    for (let i = 0; i < 6; i++) more.push(await emit('quote_intent.failed', 'live', { n: 6 + i }));
    await dispatchOutboxEvents(system());
    const groups = await claimDueDeliveries(system());
    expect(groups.map((g) => g.endpointId)).toEqual([endpoints[0].endpoint.id]);
    await deliverGroup(system(), { group: groups[0], window: new SendWindow(bed.db, 1) });
    expect(live.received.slice(6).map((x) => x.headers['service-event-id'])).toEqual(more);
    for (const { endpoint } of endpoints) await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('dispatches events written without deliveries one dispatcher at a time, in outbox order', async () => {
    // Events of an older version of the service have no deliveries yet; two dispatchers scanning
    // them at once would split them and could fan the later half out first.
    const r = await receiver();
    const { endpoint } = await endpointFor(r, { environment: 'test' });
    const events = await bed.db.$queryRaw<{ id: string }[]>`
      INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, business_id, data, created_at)
      SELECT gen_random_uuid(), 'quote_intent.failed', 1, ${bed.tenant.workspaceId}::uuid, ${bed.tenant.projectId}::uuid,
             ${bed.tenant.environments.test}::uuid, ${bed.tenant.businessId}::uuid, '{}'::json, ${T0}
      FROM generate_series(1, 5) RETURNING id::text`;
    const other = new pg.Client({ connectionString: bed.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [DISPATCH_LOCK]);
      expect(await dispatchOutboxEvents(system())).toEqual({ events: 0, deliveries: 0 });
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await dispatchOutboxEvents(system())).toEqual({ events: 5, deliveries: 5 });
    await runWebhookJobs(system());
    expect(r.received.map((x) => x.headers['service-event-id'])).toEqual(events.map((e) => e.id));
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('signs with both secrets during a rotation overlap, and with the new one only after it', async () => {
    const r = await receiver();
    const { endpoint, secret: oldSecret } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const { secret: newSecret } = await rotateEndpointSecret(asAdmin(), { endpointId: endpoint.id, overlapMinutes: 60 });
    await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
    await runWebhookJobs(system());
    const during = r.received[0];
    expect(String(during.headers['service-signature']).match(/v1=/g)).toHaveLength(2);
    expect(signedBy(during, oldSecret) && signedBy(during, newSecret)).toBe(true);

    await sendTestEvent(system(at(61 * 60_000)), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
    await runWebhookJobs(system(at(61 * 60_000)));
    const after = r.received[1];
    expect(String(after.headers['service-signature']).match(/v1=/g)).toHaveLength(1);
    expect(signedBy(after, newSecret)).toBe(true);
    expect(signedBy(after, oldSecret)).toBe(false);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('refuses loopback targets unless private targets are allowed', async () => {
    const r = await receiver();
    const { endpoint } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const previous = setEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const delivery = await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
      await runWebhookJobs(system());
      expect(r.received).toHaveLength(0);
      const [attempt] = await bed.db.webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
      expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1 is a loopback address: this deployment refuses private/);
    } finally {
      setEnv(previous);
    }
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });
});

describe('a window of sends to one endpoint', () => {
  async function testEvents(endpointId: string, n: number) {
    const deliveries = [];
    for (let i = 0; i < n; i++) deliveries.push(await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId }) }));
    return deliveries;
  }


  it(`keeps at most ${SEND_WINDOW} sends in flight, each signed, none twice`, async () => {
    // Answers held until the whole window has started (new connections included).
    const held = heldAnswers();
    const r = await receiver(held.answer);
    const { endpoint, secret } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const deliveries = await testEvents(endpoint.id, 40);
    const running = runWebhookJobs(system());
    // A whole window of new connections and handshakes: seconds on a loaded machine.
    await eventually(() => r.load.inFlight === SEND_WINDOW, 30_000);
    await sleep(200);
    expect(r.received).toHaveLength(SEND_WINDOW); // and no more while none has answered
    held.release();
    await running;
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(40);
    expect(r.load.peakInFlight).toBe(SEND_WINDOW);
    expect(r.received.filter((x) => !signedBy(x, secret))).toEqual([]);
    expect(new Set(r.received.map((x) => x.headers['service-delivery-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
    const settled = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: true } });
    expect(settled.every((d) => d.status === 'succeeded' && d.attemptCount === 1 && d.attempts.length === 1 && d.leasedUntil === null)).toBe(true);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('retries a failed delivery of the window on the schedule, and the others go on', async () => {
    let failing: string | undefined;
    const r: Receiver = await receiver((i) => (r.received[i].headers['service-delivery-id'] === failing ? 500 : 200));
    const { endpoint, secret } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const deliveries = await testEvents(endpoint.id, 20);
    failing = deliveries[3].id;
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(20);
    const failed = await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: failing }, include: { attempts: true } });
    expect(failed).toMatchObject({ status: 'pending', attemptCount: 1, leasedUntil: null });
    expect(failed.attempts[0].responseStatus).toBe(500);
    expect(failed.nextAttemptAt!.getTime() - failed.attempts[0].startedAt.getTime()).toBe(failed.attempts[0].latencyMs! + RETRY_DELAYS_MS[0]);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(19);

    await runWebhookJobs(system(new Date(failed.nextAttemptAt!.getTime() - 1000))); // not yet due
    expect(r.received).toHaveLength(20);
    failing = undefined;
    await runWebhookJobs(system(failed.nextAttemptAt!));
    expect(r.received).toHaveLength(21);
    expect(r.received[20].headers['service-delivery-id']).toBe(deliveries[3].id);
    expect(r.received[20].headers['service-attempt']).toBe('2');
    expect(signedBy(r.received[20], secret)).toBe(true);
    const retried = await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[3].id } });
    expect(retried).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('records every result of a window, even a receiver reply that PostgreSQL text cannot hold as sent', async () => {
    let odd: string | undefined;
    const r: Receiver = await receiver((i) =>
      r.received[i].headers['service-delivery-id'] === odd ? { status: 500, afterMs: 0, body: 'broken\u0000reply' } : 200,
    );
    const { endpoint } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const deliveries = await testEvents(endpoint.id, 20);
    odd = deliveries[5].id;
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(20);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(19);
    const failed = await bed.db.webhookDelivery.findUniqueOrThrow({ where: { id: odd }, include: { attempts: true } });
    expect(failed).toMatchObject({ status: 'pending', attemptCount: 1, leasedUntil: null });
    expect(failed.attempts[0]).toMatchObject({ responseStatus: 500, responseExcerpt: 'broken\uFFFDreply' });
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('a silent receiver does not hold its endpoint: once the next event has waited BACKLOG_MS the window widens and the others go', async () => {
    const held = heldAnswers();
    const r: Receiver = await receiver((i) => (i === 0 ? held.answer() : 200));
    const { endpoint } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const deliveries = await testEvents(endpoint.id, 5);
    const running = runWebhookJobs(system());
    // The first is still unanswered when the four others arrive (sent one after another).
    await eventually(() => r.received.length === 5, 30_000); // BACKLOG_MS, then four sends: seconds under load
    expect(r.load.inFlight).toBeGreaterThanOrEqual(1);
    held.release();
    await running;
    expect(r.received[0].headers['service-delivery-id']).toBe(deliveries[0].id);
    expect(new Set(r.received.map((x) => x.headers['service-delivery-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(r.load.peakInFlight).toBeGreaterThan(1);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(5);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('a stopping runner finishes the sends in flight, hands the rest back unsent, and a restart sends each once', async () => {
    const held = heldAnswers();
    const r = await receiver(held.answer);
    const { endpoint } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const n = 40;
    const deliveries = await testEvents(endpoint.id, n);
    const started = Date.now();
    const clock = () => new Date(T0.getTime() + Date.now() - started);
    const first = startInProcessRunner({ db: bed.db, clock, minuteMs: 3_600_000 });
    await eventually(() => r.load.inFlight === SEND_WINDOW, 30_000); // the runner's ticks, then a whole window of connections
    const stopped = first.stop();
    await sleep(300);
    // A stopping runner starts nothing new while it waits for the sends in flight.
    expect(r.received).toHaveLength(SEND_WINDOW);
    const answered = Date.now();
    held.release();
    await stopped;
    // Only the sends in flight were waited for, not the ones queued behind them.
    expect(Date.now() - answered).toBeLessThan(2_000);
    expect(r.received).toHaveLength(SEND_WINDOW);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(SEND_WINDOW);
    const handedBack = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id, status: 'pending' } });
    expect(handedBack).toHaveLength(n - SEND_WINDOW);
    // handed back unsent: not counted as started either
    expect(handedBack.every((d) => d.leasedUntil === null && d.attemptCount === 0 && d.attemptsStarted === 0)).toBe(true);

    const second = startInProcessRunner({ db: bed.db, clock, minuteMs: 3_600_000 });
    try {
      await eventually(async () => (await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })) === n, 30_000);
    } finally {
      await second.stop();
    }
    const ids = r.received.map((x) => x.headers['service-delivery-id']);
    expect(ids).toHaveLength(n);
    expect(new Set(ids)).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(r.received.every((x) => x.headers['service-attempt'] === '1')).toBe(true);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 120_000);

  it('sends to the endpoint as it is now: a new URL, or disabling it, reaches deliveries already claimed', async () => {
    const owner = randomUUID();
    const claimOf = async (endpointId: string) => {
      const groups = await claimDueDeliveries(system(), { owner });
      expect(groups.map((g) => g.endpointId)).toEqual([endpointId]);
      return groups[0];
    };
    // Windows of four (fewer than the 20 events) that read their endpoint before every send (the
    // runner's reads are at most a second old).
    const WINDOW = 4;
    const freshWindow = () => new SendWindow(bed.db, WINDOW, undefined, 0);
    const heldByOld = heldAnswers();
    const old: Receiver = await receiver(heldByOld.answer);
    const moved = await receiver();
    const { endpoint, secret } = await endpointFor(old, { eventTypes: ['webhook.test'] });
    const deliveries = await testEvents(endpoint.id, 20);
    const sending = deliverGroup(system(), { group: await claimOf(endpoint.id), window: freshWindow() });
    await eventually(() => old.received.length === WINDOW, 30_000); // four connections and handshakes: seconds under load
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { url: moved.url } });
    heldByOld.release();
    await sending;
    expect(old.received).toHaveLength(WINDOW); // only the sends already made when the URL changed
    expect(moved.received).toHaveLength(20 - WINDOW);
    expect(moved.received.filter((x) => !signedBy(x, secret))).toEqual([]);
    const ids = [...old.received, ...moved.received].map((x) => x.headers['service-delivery-id']);
    expect(new Set(ids)).toEqual(new Set(deliveries.map((d) => d.id)));

    // Disabled with a claim partly sent: the send in flight is recorded, the rest is canceled unsent.
    const heldBySlow = heldAnswers();
    const slow: Receiver = await receiver(heldBySlow.answer);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { url: slow.url } });
    const more = await testEvents(endpoint.id, 20);
    const sendingMore = deliverGroup(system(), { group: await claimOf(endpoint.id), window: freshWindow() });
    await eventually(() => slow.received.length === WINDOW, 30_000);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
    heldBySlow.release();
    await sendingMore;
    expect(slow.received).toHaveLength(WINDOW);
    const after = await bed.db.webhookDelivery.findMany({ where: { id: { in: more.map((d) => d.id) } } });
    expect(after.filter((d) => d.status === 'succeeded')).toHaveLength(WINDOW);
    const canceled = after.filter((d) => d.status === 'canceled');
    expect(canceled).toHaveLength(20 - WINDOW);
    expect(canceled.every((d) => d.leasedUntil === null && d.nextAttemptAt === null && d.attemptCount === 0)).toBe(true);
    await releaseEndpoint(system(), { endpointId: endpoint.id, owner });
  }, 120_000); // 40 test events and the two bounds above, on a loaded machine

  it('the in-process runner claims more while the window drains, sharing one window per endpoint', async () => {
    const r = await receiver(() => ({ status: 200, afterMs: 20 }));
    const { endpoint, secret } = await endpointFor(r, { eventTypes: ['webhook.test'] });
    const n = 3 * CLAIM_PER_ENDPOINT + 10;
    const deliveries = await testEvents(endpoint.id, n);
    const started = Date.now();
    const runner = startInProcessRunner({ db: bed.db, clock: () => new Date(T0.getTime() + Date.now() - started), minuteMs: 3_600_000 });
    try {
      // Over a hundred sends through claims of CLAIM_PER_ENDPOINT: slow on a loaded machine.
      await eventually(async () => (await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })) === n, 60_000);
    } finally {
      await runner.stop();
    }
    expect(r.received).toHaveLength(n);
    expect(r.load.peakInFlight).toBeLessThanOrEqual(SEND_WINDOW);
    expect(r.received.filter((x) => !signedBy(x, secret))).toEqual([]);
    expect(new Set(r.received.map((x) => x.headers['service-delivery-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(await bed.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(n);
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 120_000); // n test events one by one, then the bound above
});
