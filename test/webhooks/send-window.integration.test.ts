import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordEvent } from '../../lib/events/record-event';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { eventually } from '../../lib/testing/eventually';
import { heldAnswers, startReceiver, type Behaviour, type Receiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { claimDueDeliveries } from '../../lib/webhooks/claims';
import { deliverGroup } from '../../lib/webhooks/deliver-due-webhooks';
import { BACKLOG_MS, DEFAULT_SEND_WINDOW, SendWindow, webhookWindow } from '../../lib/webhooks/send-window';
import { RETRY_DELAYS_MS } from '../../lib/webhooks/retry-schedule';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { countWebhookAttempts } from '../../lib/overview/store';
import { webhookTestbed } from '../support/webhook-testbed';
import { arrivals, inversions } from './arrivals';

/**
 * Spec 6.5, outbox order normally, with issue 31's throughput: an endpoint is sent one event at
 * a time, each after the previous answer, so a receiver that keeps up receives them in outbox
 * order; once the next event has been due BACKLOG_MS (the receiver is not keeping up) the window
 * widens to WEBHOOK_SEND_WINDOW sends in flight, still started in outbox order, and narrows back
 * once the backlog is gone.
 */
const T0 = new Date('2033-01-01T00:00:00Z');
const bed = webhookTestbed(T0, { settled: true });

type Type = 'business.branding_updated' | 'api_key.created';

async function endpointWith(behaviour: (index: number) => Behaviour, type: Type) {
  const receiver = await startReceiver(behaviour);
  bed.receivers.push(receiver);
  const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: receiver.url, eventTypes: [type] });
  return { receiver, endpoint };
}

async function events(type: Type | 'book_version.published', count: number, now: Date, { from = 0, environment = 'live' as 'live' | 'test' } = {}) {
  const ids: string[] = [];
  for (let n = from; n < from + count; n++) {
    ids.push(await recordEvent({ db: bed.db, now }, { type, workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments[environment], data: { n } }));
  }
  return ids;
}

describe('a window of sends per endpoint', () => {
  it('a receiver that keeps up gets 40 events in outbox order, one at a time, at the default settings: 0 inversions in received order', async () => {
    expect(webhookWindow().size).toBe(DEFAULT_SEND_WINDOW);
    const { receiver, endpoint } = await endpointWith(() => 200, 'business.branding_updated');
    const ids = await events('business.branding_updated', 40, T0);
    // The runner's clock stands still: on a loaded machine a send can take over BACKLOG_MS, which
    // would (rightly) widen the window; keeping up is what this test is about, the widening the next's.
    const runner = startInProcessRunner({ db: bed.db, clock: () => T0, tickMs: 50, minuteMs: 3_600_000 });
    try {
      // 40 sends one after another, each claimed, sent and recorded: slow on a loaded machine.
      await eventually(async () => (await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })) === 40, 60_000, 20);
    } finally {
      await runner.stop();
    }
    expect(arrivals(receiver)).toEqual(ids);
    expect(inversions(arrivals(receiver), ids)).toBe(0);
    expect(receiver.load.peakInFlight).toBe(1);
    expect(await bed.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(40);
    await updateEndpoint(bed.system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 120_000);

  it('widens only once the next event has been due BACKLOG_MS, and narrows back to one at a time when the backlog is gone', async () => {
    const held = heldAnswers();
    const { receiver, endpoint } = await endpointWith(held.answer, 'api_key.created');
    await events('api_key.created', 40, T0);
    // A clock the test moves: how long the waiting events have been due is what widens the window.
    let now = T0;
    const clock = () => now;
    const window = new SendWindow(bed.db);
    const owner = randomUUID(); // one worker: its claims share the endpoint's send lease, as a runner's do
    const [group] = await claimDueDeliveries(bed.system(T0), { owner });
    expect(group.deliveryIds).toHaveLength(40);
    const sending = deliverGroup(bed.system(T0), { group, window, clock });
    // Nothing answers, but nothing has waited yet: one send in flight. (The bounds below are for a
    // loaded machine: a send's marks, connection and handshake can take seconds there.)
    await eventually(() => receiver.received.length === 1, 30_000, 20);
    expect(window.width).toBe(1);
    // The next one has now waited BACKLOG_MS: a whole window goes out, and no more while none answers.
    now = new Date(T0.getTime() + BACKLOG_MS);
    await eventually(() => receiver.load.inFlight === DEFAULT_SEND_WINDOW, 30_000, 20);
    expect(window.width).toBe(DEFAULT_SEND_WINDOW);
    held.release();
    await sending;
    expect(receiver.received).toHaveLength(40);
    expect(receiver.load.peakInFlight).toBe(DEFAULT_SEND_WINDOW);
    expect(window.width).toBe(1); // nothing in flight, nothing waiting: narrowed back

    // Later events, due as they are sent, go through the same window one at a time, in order.
    receiver.load.peakInFlight = 0;
    const later = await events('api_key.created', 20, now, { from: 40 });
    const [next] = await claimDueDeliveries(bed.system(now), { owner });
    await deliverGroup(bed.system(now), { group: next, window, clock });
    expect(arrivals(receiver).slice(40)).toEqual(later);
    expect(receiver.load.peakInFlight).toBe(1);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(60);
    await updateEndpoint(bed.system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 120_000);

  const EVENTS = 500;
  const FAILING = 250;
  it(`500 events to a receiver answering in 200 ms: drained with the window widened to ${DEFAULT_SEND_WINDOW}, first attempts started in outbox order, a failure retried without stalling the rest`, async () => {
    let receiver: Receiver | undefined;
    let failedOnce = false;
    receiver = await startReceiver((i) => {
      if (!failedOnce && JSON.parse(receiver!.received[i].rawBody).data.n === FAILING) {
        failedOnce = true;
        return { status: 503, afterMs: 200 };
      }
      return { status: 200, afterMs: 200 };
    });
    bed.receivers.push(receiver);
    // The Test environment: its attempts are this endpoint's alone (the rollup below).
    const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'test', url: receiver.url, eventTypes: ['book_version.published'] });
    const ids = await events('book_version.published', EVENTS, T0, { environment: 'test' });
    const started = Date.now();
    let skipped = 0;
    // The clock follows real time (the backlog widens the window) but stops short of the failed
    // one's retry: on a loaded machine the drain can outlast RETRY_DELAYS_MS[0], and a retry due
    // meanwhile would go out before the events after it. The test moves it past the retry below.
    const elapsed = () => Math.min(Date.now() - started, RETRY_DELAYS_MS[0] - 1_000);
    const runner = startInProcessRunner({ db: bed.db, clock: () => new Date(T0.getTime() + elapsed() + skipped), tickMs: 50, minuteMs: 3_600_000 });
    try {
      await eventually(() => (receiver.received.length >= EVENTS ? true : undefined), 120_000, 50);
      await eventually(async () => ((await bed.db.webhookAttempt.count({ where: { state: 'ended', delivery: { endpointId: endpoint.id } } })) >= EVENTS ? true : undefined), 30_000, 50);
      skipped = RETRY_DELAYS_MS[0] + 1_000; // the clock moves past the failed one's retry
      await eventually(() => (receiver.received.length >= EVENTS + 1 ? true : undefined), 30_000, 50);
    } finally {
      await runner.stop();
    }

    // The backlog widened the window to its most, never more. (The drain rate it gives, at least
    // 100 events a second to this receiver, is the bench's to measure: `npm run bench -- --only webhooks`.)
    expect(receiver.load.peakInFlight).toBe(DEFAULT_SEND_WINDOW);

    // First attempts started in outbox order: by event seq, their start times never go back.
    const firsts = await bed.db.webhookAttempt.findMany({
      where: { number: 1, delivery: { endpointId: endpoint.id } },
      select: { startedAt: true, responseStatus: true, delivery: { select: { event: { select: { id: true, seq: true } } } } },
    });
    expect(firsts).toHaveLength(EVENTS);
    const bySeq = [...firsts].sort((a, b) => Number(a.delivery.event.seq - b.delivery.event.seq));
    expect(bySeq.map((a) => a.delivery.event.id)).toEqual(ids);
    const wentBack = bySeq.filter((a, i) => i > 0 && a.startedAt < bySeq[i - 1].startedAt).length;
    expect(wentBack, 'first attempts that started before an earlier event’s').toBe(0);

    // The failure did not hold the window: every later event was answered before its retry.
    expect(bySeq[FAILING].responseStatus).toBe(503);
    const retry = await bed.db.webhookAttempt.findFirstOrThrow({ where: { number: 2, delivery: { eventId: ids[FAILING], endpointId: endpoint.id } } });
    expect(retry.responseStatus).toBe(200);
    expect(bySeq.slice(FAILING + 1).every((a) => a.responseStatus === 200 && a.startedAt < retry.startedAt)).toBe(true);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(EVENTS);

    // The Overview's hourly rollup, kept with the attempts, equals them: 501 attempts, 500 acknowledged.
    const environmentId = bed.tenant.environments.test;
    const raw = await bed.db.webhookAttempt.groupBy({ by: ['responseStatus'], where: { delivery: { endpoint: { environmentId } } }, _count: true });
    const rolled = await bed.db.webhookAttemptHourly.findMany({ where: { environmentId } });
    const sum = (rows: { attempts: bigint }[]) => rows.reduce((n, r) => n + Number(r.attempts), 0);
    expect(sum(rolled)).toBe(raw.reduce((n, r) => n + r._count, 0));
    expect(sum(rolled.filter((r) => r.succeeded))).toBe(raw.filter((r) => r.responseStatus !== null && r.responseStatus >= 200 && r.responseStatus < 300).reduce((n, r) => n + r._count, 0));
    expect(await countWebhookAttempts(bed.db, environmentId, T0)).toEqual({ attempts: EVENTS + 1, succeeded: EVENTS });
    await updateEndpoint(bed.system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 240_000); // 500 events recorded one by one, then the three bounds above
});
