import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../lib/db/client';
import { recordEvent } from '../../lib/events/record-event';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { startReceiver, type Behaviour, type Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { createEndpoint, updateEndpoint } from '../../lib/webhooks/manage-endpoints';

/**
 * Spec 6.5: an endpoint receives its events in outbox order when nothing fails, whichever of
 * several workers sends them; a retry may come later than the events after it.
 */
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Awaited<ReturnType<typeof createPerson>>;
const receivers: Receiver[] = [];
const T0 = new Date('2032-01-01T00:00:00Z');

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, db);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await iso?.close();
});

/** Two workers, as two service processes would be: each with its own connection pool and runner. */
function twoRunners(clock: () => Date) {
  const pools = [createDb(iso.url), createDb(iso.url)];
  const runners = pools.map((p) => startInProcessRunner({ db: p.prisma, clock, tickMs: 50, minuteMs: 3_600_000 }));
  return async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await Promise.all(pools.map((p) => p.close()));
  };
}

async function setUp(behaviour: (index: number) => Behaviour, count: number) {
  const receiver = await startReceiver(behaviour);
  receivers.push(receiver);
  const { endpoint } = await createEndpoint(
    db,
    admin.principal,
    { projectId: tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['business.branding_updated'] },
    T0,
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      await recordEvent(
        db,
        { type: 'business.branding_updated', workspaceId: tenant.workspaceId, projectId: tenant.projectId, environmentId: tenant.environments.live, data: { n: i } },
        T0,
      ),
    );
  }
  return { receiver, endpoint, ids };
}

/** Pairs of arrivals in the wrong order: 0 when every event came after those before it in the outbox. */
function inversions(arrived: string[], outboxOrder: string[]): number {
  const position = new Map(outboxOrder.map((id, i) => [id, i]));
  let count = 0;
  for (let i = 0; i < arrived.length; i++) for (let j = i + 1; j < arrived.length; j++) if (position.get(arrived[i])! > position.get(arrived[j])!) count++;
  return count;
}

const arrivals = (receiver: Receiver) => receiver.received.map((r) => String(r.headers['service-event-id']));

describe('delivery order per endpoint', () => {
  it('a slow receiver gets 40 events from two workers in outbox order: 0 inversions', async () => {
    const { receiver, endpoint, ids } = await setUp(() => ({ status: 200, afterMs: 1_000 }), 40);
    const started = Date.now();
    const stop = twoRunners(() => new Date(T0.getTime() + Date.now() - started));
    try {
      await eventually(() => receiver.received.length === 40, 60_000, 100);
    } finally {
      await stop();
    }
    expect(arrivals(receiver)).toEqual(ids);
    expect(inversions(arrivals(receiver), ids)).toBe(0);
    expect(receiver.load.peakInFlight).toBe(1);
    await updateEndpoint(db, endpoint.id, { status: 'disabled' }, T0);
  }, 90_000);

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
    // A clock that runs 100 times faster than the wall: the 30 s until the retry pass in 0.3 s.
    const started = Date.now();
    const stop = twoRunners(() => new Date(T0.getTime() + (Date.now() - started) * 100));
    try {
      await eventually(() => set.receiver.received.length === 41, 60_000, 50);
    } finally {
      await stop();
    }
    const got = arrivals(set.receiver);
    expect(got.filter((id) => id === ids[9])).toHaveLength(2);
    // Without the retried event's second arrival, everything came in outbox order...
    const firstArrivals = got.filter((id, i) => id !== ids[9] || got.indexOf(id) === i);
    expect(firstArrivals).toEqual(ids);
    // ...and the retry came after events that followed it in the outbox.
    expect(got.lastIndexOf(ids[9])).toBeGreaterThan(got.indexOf(ids[10]));
    await updateEndpoint(db, endpoint.id, { status: 'disabled' }, T0);
  }, 90_000);
});
