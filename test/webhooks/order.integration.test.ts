import { describe, expect, it } from 'vitest';
import { createDb } from '../../lib/db/client';
import { recordEvent } from '../../lib/events/record-event';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { eventually } from '../../lib/testing/eventually';
import { heldAnswers, startReceiver, type Behaviour, type Receiver } from '../../lib/testing/https-receiver';
import { randomUUID } from 'node:crypto';
import { LEASE_MS, claimDueDeliveries } from '../../lib/webhooks/claims';
import { deliverGroup } from '../../lib/webhooks/deliver-due-webhooks';
import { SendWindow } from '../../lib/webhooks/send-window';
import { MARK_AHEAD } from '../../lib/webhooks/store';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { webhookTestbed } from '../support/webhook-testbed';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { arrivals, inversions } from './arrivals';

/**
 * Spec 6.5 with a window that never widens (WEBHOOK_SEND_WINDOW=1): an endpoint receives its
 * events in outbox order when nothing fails, whichever of several workers sends them, however
 * slow the receiver; a retry may come later than the events after it. The default window (one at
 * a time, wider while a backlog drains) is test/webhooks/send-window.integration.test.ts.
 */
const T0 = new Date('2032-01-01T00:00:00Z');
const bed = webhookTestbed(T0);
const { receivers, system, asAdmin } = bed;

/** Two workers, as two service processes would be: each with its own connection pool and runner. */
function twoRunners(clock: () => Date) {
  const pools = [createDb(bed.databaseUrl), createDb(bed.databaseUrl)];
  const runners = pools.map((p) => startInProcessRunner({ db: p.prisma, clock, tickMs: 50, minuteMs: 3_600_000, sendWindow: 1 }));
  return async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await Promise.all(pools.map((p) => p.close()));
  };
}

async function setUp(behaviour: (index: number) => Behaviour, count: number) {
  const receiver = await startReceiver(behaviour);
  receivers.push(receiver);
  const { endpoint } = await createEndpoint(asAdmin(), {
    projectId: bed.tenant.projectId,
    environment: 'live',
    url: receiver.url,
    eventTypes: ['business.branding_updated'],
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      await recordEvent({ db: bed.db, now: T0 }, { type: 'business.branding_updated', workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments.live, data: { n: i } }),
    );
  }
  return { receiver, endpoint, ids };
}


describe('delivery order per endpoint', () => {
  it('a slow receiver gets 40 events from two workers in outbox order: 0 inversions', async () => {
    // Each answer takes half a second: the 40 sends (20 s) outlast a lease (LEASE_MS). The 35th
    // answer waits for the test, so that the claim is still sending when its leases are read.
    const thirtyFifth = heldAnswers();
    const { receiver, endpoint, ids } = await setUp((i) => (i === 34 ? thirtyFifth.answer() : { status: 200, afterMs: 500 }), 40);
    const started = Date.now();
    const stop = twoRunners(() => new Date(T0.getTime() + Date.now() - started));
    const leases: number[] = [];
    try {
      // The claim holding the endpoint renews its lease while it sends: after 34 answers (17 s
      // and more) it holds the endpoint well past the LEASE_MS a claim starts with.
      await eventually(() => receiver.received.length >= 35, 60_000, 100);
      const held = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id, leasedUntil: { not: null } }, select: { leasedUntil: true } });
      leases.push(...held.map((d) => d.leasedUntil!.getTime() - T0.getTime()));
      thirtyFifth.release();
      await eventually(() => receiver.received.length === 40, 60_000, 100);
    } finally {
      thirtyFifth.release();
      await stop();
    }
    expect(Math.max(...leases)).toBeGreaterThan(LEASE_MS + 10_000);
    expect(arrivals(receiver)).toEqual(ids);
    expect(inversions(arrivals(receiver), ids)).toBe(0);
    expect(receiver.load.peakInFlight).toBe(1);
    expect(await bed.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(40); // none sent twice
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 90_000);

  it('a crashed worker’s claim runs out after LEASE_MS and another worker sends what it held', async () => {
    const { receiver, endpoint, ids } = await setUp(() => 200, MARK_AHEAD + 2);
    // A worker claims and dies before sending anything.
    const crashed = await claimDueDeliveries(system(), { owner: randomUUID() });
    expect(crashed.map((g) => g.deliveryIds.length)).toEqual([MARK_AHEAD + 2]);
    const other = randomUUID();
    expect(await claimDueDeliveries(system(new Date(T0.getTime() + LEASE_MS - 1_000)), { owner: other })).toEqual([]);
    const [takeover] = await claimDueDeliveries(system(new Date(T0.getTime() + LEASE_MS + 1)), { owner: other });
    expect(takeover.deliveryIds).toEqual(crashed[0].deliveryIds);
    await deliverGroup(system(new Date(T0.getTime() + LEASE_MS + 1)), { group: takeover, window: new SendWindow(bed.db, 1) });
    expect(arrivals(receiver)).toEqual(ids);
    // The dead claim had marked its first MARK_AHEAD started (one of them may have been in
    // flight): their sends say attempt 2, so a receiver can tell a possible re-send; the rest are first attempts.
    const expected = ids.map((_, i) => (i < MARK_AHEAD ? 2 : 1));
    expect(receiver.received.map((r) => Number(r.headers['service-attempt']))).toEqual(expected);
    // Their history says so: attempt 1 recorded before the dead claim could send it, its outcome lost.
    const attempts = await bed.db.webhookAttempt.findMany({ where: { deliveryId: { in: takeover.deliveryIds } }, orderBy: { number: 'asc' } });
    expect(takeover.deliveryIds.map((id) => attempts.filter((a) => a.deliveryId === id).map((a) => `${a.number} ${a.state}`))).toEqual(
      expected.map((n) => (n === 2 ? ['1 lost', '2 ended'] : ['1 ended'])),
    );
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('a failed event is retried later; only it moves, the others keep their order', async () => {
    let failedOnce = false;
    let r: Receiver | undefined;
    const set = await setUp((i) => {
      // The 10th event's first attempt fails.
      if (!failedOnce && JSON.parse(r!.received[i].rawBody).data.n === 9) {
        failedOnce = true;
        return 503;
      }
      return { status: 200, afterMs: 20 };
    }, 40);
    r = set.receiver;
    const { endpoint, ids } = set;
    // The wall's clock, moved on past the retry's time once every event has had its first attempt.
    const started = Date.now();
    let skipped = 0;
    const stop = twoRunners(() => new Date(T0.getTime() + (Date.now() - started) + skipped));
    try {
      // At least, not exactly: a poll can miss an exact count, and an arrival too many is for the
      // assertions below to name.
      await eventually(() => set.receiver.received.length >= 40, 60_000, 50);
      // Every first attempt recorded (39 acknowledged, one failed) before the clock jumps past the
      // retry: a send still in flight would otherwise see its 15 s lease lapse under the jump and
      // be sent again by the other runner (on a busy machine the record trails the arrival).
      await eventually(
        async () => (await bed.db.webhookAttempt.count({ where: { state: 'ended', delivery: { endpointId: endpoint.id } } })) >= 40,
        60_000,
        50,
      );
      skipped = 31_000;
      await eventually(() => set.receiver.received.length >= 41, 60_000, 50);
    } finally {
      await stop();
    }
    const got = arrivals(set.receiver);
    expect(got.filter((id) => id === ids[9]), `arrivals: ${got.map((id) => ids.indexOf(id)).join(' ')}`).toHaveLength(2);
    // Without the retried event's second arrival, everything came in outbox order...
    const firstArrivals = got.filter((id, i) => id !== ids[9] || got.indexOf(id) === i);
    expect(firstArrivals).toEqual(ids);
    // ...and the retry came after events that followed it in the outbox.
    expect(got.lastIndexOf(ids[9])).toBeGreaterThan(got.indexOf(ids[10]));
    await updateEndpoint(system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 90_000);
});
