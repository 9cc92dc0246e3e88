import { InngestTestEngine, mockCtx } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, createTenant, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { signedBy, startReceiver, type Behaviour, type Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../lib/webhooks/retry-schedule';
import { forwardDeliveries, type DeliveryQueuedEvent } from '../../lib/webhooks/forward-deliveries';
import { replayDelivery } from '../../lib/webhooks/replay-delivery';
import { requireDelivery } from '../../lib/webhooks/require-delivery';
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { deleteEndpoint } from '../../lib/webhooks/delete-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';
import { rotateEndpointSecret } from '../../lib/webhooks/rotate-endpoint-secret';
import { createDeliverWebhook } from '../../inngest/functions/deliver-webhook';

/**
 * One table of delivery scenarios, run by both engines: the in-process runner (its own loop,
 * with a clock the test moves to each attempt's time) and the Inngest function (run by
 * @inngest/test, each durable sleep moving the clock to the time it sleeps until). Both must
 * leave the same rows behind: the same attempts at the same offsets, the same final state.
 */

/** A clock the test moves: the engines read it for "now". */
class TestClock {
  constructor(public now: Date) {}
  /** Only forward: a replayed function body calls its earlier sleeps again. */
  moveTo(time: Date) {
    if (time > this.now) this.now = time;
  }
}

type Context = {
  db: Db;
  admin: Person;
  clock: TestClock;
  receiver: Receiver;
  endpointId: string;
  secret: string;
  deliveryId: string;
  /** The signing secret after a rotation the scenario made. */
  rotatedSecret?: string;
  engine: Engine;
};

type Scenario = {
  name: string;
  receiver: (index: number) => Behaviour;
  /** Runs once the n-th attempt is recorded, before the clock moves to the next. */
  afterAttempt?: (n: number, context: Context) => Promise<void>;
  /** The answer each attempt got, in order. */
  statuses: number[];
  final: 'succeeded' | 'exhausted' | 'canceled';
  /** Further checks on what the receiver got and what the database holds. */
  then?: (context: Context) => Promise<void>;
};

type Engine = {
  name: string;
  /** Drives one delivery to its end: each attempt at its time; `afterAttempt` after each is recorded. */
  drive(db: Db, clock: TestClock, deliveryId: string, afterAttempt: (n: number) => Promise<void>): Promise<void>;
};

const attemptsOf = (db: Db, deliveryId: string) =>
  db.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { number: 'asc' }, select: { number: true, startedAt: true, latencyMs: true, responseStatus: true } });

const inProcessRunner: Engine = {
  name: 'the in-process runner',
  async drive(db, clock, deliveryId, afterAttempt) {
    const runner = startInProcessRunner({ db, clock: () => clock.now, tickMs: 10, minuteMs: 3_600_000 });
    try {
      for (let n = 1; n <= MAX_ATTEMPTS; n++) {
        const row = await eventually(async () => {
          const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
          return delivery.attemptCount >= n || delivery.status !== 'pending' ? delivery : undefined;
        }, 15_000);
        if (row.attemptCount < n) return; // settled without it
        await afterAttempt(n);
        const now = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
        if (now.status !== 'pending') return;
        clock.moveTo(now.nextAttemptAt!);
      }
    } finally {
      // A day later: the runner has had its chance to attempt anything still due.
      clock.moveTo(new Date(clock.now.getTime() + 86_400_000));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await runner.stop();
    }
  },
};

const inngestFunction: Engine = {
  name: 'the Inngest function',
  async drive(db, clock, deliveryId, afterAttempt) {
    // The delivery reaches Inngest as the forwarder sends it: one event, after the write.
    const sent: DeliveryQueuedEvent[] = [];
    await forwardDeliveries(testContext(db, { now: clock.now }), { send: async (events) => void sent.push(...events) });
    const event = sent.find((e) => e.data.deliveryId === deliveryId);
    expect(event).toBeDefined();
    const sleptUntil = new Map<string, string>();
    const engine = new InngestTestEngine({
      function: createDeliverWebhook({ db: () => db, clock: () => clock.now, send: async () => undefined }),
      events: [event!],
      transformCtx: (ctx) => {
        const mocked = mockCtx(ctx);
        const sleepUntil = mocked.step.sleepUntil;
        mocked.step.sleepUntil = (id, time) => {
          sleptUntil.set(typeof id === 'string' ? id : id.id, String(time));
          return sleepUntil(id, time);
        };
        return mocked;
      },
      // Each sleep "passes": the scenario acts, then the clock jumps to the time slept until.
      steps: Array.from({ length: MAX_ATTEMPTS + 1 }, (_, i) => ({
        id: `wait-${i + 1}`,
        async handler() {
          await afterAttempt(i + 1);
          clock.moveTo(new Date(sleptUntil.get(`wait-${i + 1}`)!));
          return null;
        },
      })),
    });
    const { result, error } = await engine.execute();
    expect(error).toBeUndefined();
    expect((result as { retryAt: string | null }).retryAt).toBeNull();
    // Every sleep was until the next attempt the database had scheduled, as the fixed schedule says: its delay after the attempt before ended.
    const attempts = await attemptsOf(db, deliveryId);
    for (const [id, until] of sleptUntil) {
      const n = Number(id.slice('wait-'.length));
      const before = attempts[n - 1];
      if (n < attempts.length) expect(new Date(until).getTime()).toBe(before.startedAt.getTime() + before.latencyMs! + RETRY_DELAYS_MS[n - 1]);
    }
  },
};

const scenarios: Scenario[] = [
  {
    name: 'retries on the fixed schedule and succeeds at the fifth attempt',
    receiver: (i) => (i < 4 ? 500 : 200),
    statuses: [500, 500, 500, 500, 200],
    final: 'succeeded',
  },
  {
    name: 'is exhausted after the fifth failure and never attempted again',
    receiver: () => 503,
    statuses: [503, 503, 503, 503, 503],
    final: 'exhausted',
  },
  {
    name: 'an exhausted delivery replayed: a new delivery sent once, the original unchanged',
    receiver: (i) => (i < 5 ? 500 : 200),
    statuses: [500, 500, 500, 500, 500],
    final: 'exhausted',
    async then({ db, admin, clock, receiver, deliveryId, engine }) {
      const original = await requireDelivery(testContext(db, { principal: admin.principal }), { deliveryId });
      const replay = await replayDelivery(testContext(db, { now: clock.now }), { delivery: original });
      await engine.drive(db, clock, replay.id, async () => {});
      expect((await attemptsOf(db, replay.id)).map((a) => a.responseStatus)).toEqual([200]);
      expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: replay.id } })).toMatchObject({ status: 'succeeded', replayOfId: deliveryId });
      expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'exhausted', attemptCount: 5 });
      expect(receiver.received.map((r) => r.headers['service-delivery-id'])).toEqual([...Array(5).fill(deliveryId), replay.id]);
    },
  },
  {
    name: 'a secret rotated mid-schedule: the next attempt is signed with the new and the old secret',
    receiver: (i) => (i < 1 ? 500 : 200),
    async afterAttempt(n, context) {
      if (n === 1) {
        const asAdmin = testContext(context.db, { now: context.clock.now, principal: context.admin.principal });
        context.rotatedSecret = (await rotateEndpointSecret(asAdmin, { endpointId: context.endpointId, overlapMinutes: 60 })).secret;
      }
    },
    statuses: [500, 200],
    final: 'succeeded',
    async then({ receiver, secret, rotatedSecret }) {
      const [before, after] = receiver.received;
      expect(String(before.headers['service-signature']).match(/v1=/g)).toHaveLength(1);
      expect(signedBy(before, secret)).toBe(true);
      expect(String(after.headers['service-signature']).match(/v1=/g)).toHaveLength(2);
      expect(signedBy(after, rotatedSecret!)).toBe(true);
      expect(signedBy(after, secret)).toBe(true);
    },
  },
  {
    name: 'its endpoint deleted mid-schedule: canceled, never attempted again',
    receiver: () => 500,
    async afterAttempt(n, { db, admin, endpointId, clock }) {
      if (n === 1) await deleteEndpoint(testContext(db, { now: clock.now, principal: admin.principal }), { endpointId });
    },
    statuses: [500],
    final: 'canceled',
  },
];

let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Person;
const receivers: Receiver[] = [];
let day = 0;

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: 'all' }, db);
}, 60_000);

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await iso?.close();
});

describe.each([inProcessRunner, inngestFunction])('$name', (engine) => {
  it.each(scenarios)('$name', async (scenario) => {
    // Each scenario starts on a day of its own, so nothing of an earlier one is due.
    const clock = new TestClock(new Date(Date.UTC(2031, 0, 1 + 2 * day++)));
    const receiver = await startReceiver(scenario.receiver);
    receivers.push(receiver);
    const asAdmin = testContext(db, { now: clock.now, principal: admin.principal });
    const { endpoint, secret } = await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['webhook.test'] });
    const delivery = await sendTestEvent(asAdmin, { endpoint: await requireEndpoint(asAdmin, { endpointId: endpoint.id }) });
    const context: Context = { db, admin, clock, receiver, endpointId: endpoint.id, secret, deliveryId: delivery.id, engine };

    await engine.drive(db, clock, delivery.id, (n) => scenario.afterAttempt?.(n, context) ?? Promise.resolve());

    const attempts = await attemptsOf(db, delivery.id);
    expect(attempts.map((a) => a.responseStatus)).toEqual(scenario.statuses);
    attempts.slice(1).forEach((attempt, i) => {
      // each attempt at its time: the fixed delay after the one before ended (the send's own time,
      // seconds on a loaded machine, counted from its latency rather than allowed for)
      const gap = attempt.startedAt.getTime() - attempts[i].startedAt.getTime();
      expect(gap).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i]);
      expect(gap).toBeLessThan(RETRY_DELAYS_MS[i] + attempts[i].latencyMs! + 2_000);
    });
    const settled = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(settled).toMatchObject({ status: scenario.final, attemptCount: scenario.statuses.length, nextAttemptAt: null, leasedUntil: null });
    expect(receiver.received.slice(0, scenario.statuses.length).map((r) => r.headers['service-attempt'])).toEqual(
      scenario.statuses.map((_, i) => String(i + 1)),
    );
    await scenario.then?.(context);
    if (!scenario.then) expect(receiver.received).toHaveLength(scenario.statuses.length);
  }, 60_000);
});

describe('the Inngest function’s event', () => {
  it.each([
    ['no endpoint', { deliveryId: '0b7e5a4c-1d2e-4f3a-8b9c-0d1e2f3a4b5c' }],
    ['a delivery id that is not a uuid', { deliveryId: 'x\u0000y', endpointId: '0b7e5a4c-1d2e-4f3a-8b9c-0d1e2f3a4b5c' }],
    ['a field it does not know', { deliveryId: '0b7e5a4c-1d2e-4f3a-8b9c-0d1e2f3a4b5c', endpointId: '0b7e5a4c-1d2e-4f3a-8b9c-0d1e2f3a4b5c', extra: 1 }],
  ])('refuses an event with %s before the run touches the database', async (_, data) => {
    let reachedDatabase = false;
    const engine = new InngestTestEngine({
      function: createDeliverWebhook({
        db: () => {
          reachedDatabase = true;
          return db;
        },
        clock: () => new Date(),
        send: async () => undefined,
      }),
      events: [{ name: 'webhooks/delivery.queued', data }],
    });
    const { error } = await engine.execute();
    expect(error).toBeDefined();
    expect(reachedDatabase).toBe(false);
  });
});
