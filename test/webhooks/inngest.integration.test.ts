import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import { createApiKey } from '../../lib/keys/create-api-key';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, createTenant, quoteRequest, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { DELIVERY_QUEUED_EVENT, forwardDeliveries, OVERDUE_MS, type DeliveryQueuedEvent } from '../../lib/webhooks/forward-deliveries';
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';
import { createMinuteJobs } from '../../inngest/functions/minute-jobs';
import { createSweepDeliveries } from '../../inngest/functions/sweep-deliveries';
import { functions } from '../../inngest/functions';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';

/**
 * Inngest's event API as the service meets it: a real HTTP server on loopback that takes
 * `POST /e/<event key>` and acknowledges (or, while `down`, answers 500 like an outage).
 */
async function startInngestEventApi() {
  const received: { key: string; events: DeliveryQueuedEvent[] }[] = [];
  const api = {
    down: false,
    received,
    events: () => received.flatMap((r) => r.events),
    url: '',
    stop: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const key = /^\/e\/([^/?]+)/.exec(request.url ?? '')?.[1];
      if (request.method !== 'POST' || !key) return response.writeHead(404).end();
      if (api.down) return response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"unavailable","status":500}');
      const events = JSON.parse(Buffer.concat(chunks).toString('utf8')) as DeliveryQueuedEvent[];
      received.push({ key, events });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ids: events.map((e) => e.id), status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  api.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Person;
let inngestApi: Awaited<ReturnType<typeof startInngestEventApi>>;

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: 'all' }, db);
  inngestApi = await startInngestEventApi();
}, 60_000);

afterAll(async () => {
  await inngestApi?.stop();
  await iso?.close();
});

/** Ends a test's deliveries (as a run would), so that later tests' forwards do not find them overdue. */
async function settle(deliveries: { id: string }[]) {
  await db.webhookDelivery.updateMany({ where: { id: { in: deliveries.map((d) => d.id) } }, data: { status: 'succeeded', nextAttemptAt: null } });
}

async function endpointWithDeliveries(n: number, now: Date) {
  const asAdmin = testContext(db, { now, principal: admin.principal });
  const { endpoint } = await createEndpoint(asAdmin, {
    projectId: tenant.projectId,
    environment: 'live',
    url: 'https://hooks.example.com/inngest',
    eventTypes: ['webhook.test'],
  });
  const deliveries = [];
  for (let i = 0; i < n; i++) deliveries.push(await sendTestEvent(asAdmin, { endpoint: await requireEndpoint(asAdmin, { endpointId: endpoint.id }) }));
  return { endpoint, deliveries };
}

describe('handing deliveries to Inngest (the outbox stays the source of truth)', () => {
  const client = () => new Inngest({ id: 'quote-pricing-service-test', baseUrl: inngestApi.url, eventKey: 'test-event-key' });
  const send = (events: DeliveryQueuedEvent[]) => client().send(events);

  it('sends one event per pending delivery, in outbox order, and marks them only once acknowledged', async () => {
    const now = new Date('2032-01-01T00:00:00Z');
    const { endpoint, deliveries } = await endpointWithDeliveries(3, now);
    const before = inngestApi.events().length;
    expect(await forwardDeliveries(testContext(db, { now }), { send })).toEqual({ forwarded: 3 });
    const sent = inngestApi.events().slice(before);
    expect(inngestApi.received.at(-1)!.key).toBe('test-event-key');
    expect(sent).toMatchObject(
      deliveries.map((d) => ({ id: `delivery-${d.id}-0`, name: DELIVERY_QUEUED_EVENT, data: { deliveryId: d.id, endpointId: endpoint.id } })),
    );
    const rows = await db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(rows.map((r) => [r.forwardCount, r.forwardedAt?.toISOString()])).toEqual(Array(3).fill([1, now.toISOString()]));
    // Nothing left to hand over.
    expect(await forwardDeliveries(testContext(db, { now }), { send })).toEqual({ forwarded: 0 });
    expect(inngestApi.events()).toHaveLength(before + 3);
    await settle(deliveries);
  });

  it('loses nothing while Inngest is down: the next forward sends the same events again', async () => {
    const now = new Date('2032-01-02T00:00:00Z');
    const { deliveries } = await endpointWithDeliveries(2, now);
    inngestApi.down = true;
    await expect(forwardDeliveries(testContext(db, { now }), { send })).rejects.toThrow();
    inngestApi.down = false;
    const unmarked = await db.webhookDelivery.findMany({ where: { id: { in: deliveries.map((d) => d.id) } } });
    expect(unmarked.every((d) => d.forwardedAt === null && d.forwardCount === 0)).toBe(true);

    const before = inngestApi.events().length;
    expect(await forwardDeliveries(testContext(db, { now: new Date(now.getTime() + 60_000) }), { send })).toEqual({ forwarded: 2 });
    // The same ids as the attempt that failed: had Inngest taken them after all, it drops the repeats.
    expect(inngestApi.events().slice(before).map((e) => e.id)).toEqual(deliveries.map((d) => `delivery-${d.id}-0`));
    await settle(deliveries);
  });

  it('hands over again a delivery whose run was lost, once it is overdue, under a new event id', async () => {
    const now = new Date('2032-01-03T00:00:00Z');
    const { deliveries } = await endpointWithDeliveries(1, now);
    await forwardDeliveries(testContext(db, { now }), { send });
    const before = inngestApi.events().length;
    // Still pending at its time, and a little later: its run may yet be on its way.
    expect(await forwardDeliveries(testContext(db, { now: new Date(now.getTime() + OVERDUE_MS - 1_000) }), { send })).toEqual({ forwarded: 0 });
    // Overdue, and no sender holds it: the run is taken for lost.
    expect(await forwardDeliveries(testContext(db, { now: new Date(now.getTime() + OVERDUE_MS + 1_000) }), { send })).toEqual({ forwarded: 1 });
    expect(inngestApi.events().slice(before).map((e) => e.id)).toEqual([`delivery-${deliveries[0].id}-1`]);
    await settle(deliveries);
  });
});

describe('the cron functions', () => {
  it('the serve route offers the delivery function, the sweep and each minute job', () => {
    expect(functions.map((f) => f.id())).toEqual([
      'deliver-webhook',
      'sweep-webhook-deliveries',
      'sweep-rotated-keys',
      'expire-quote-intents',
      'cancel-undeliverable-deliveries',
      'forget-idempotent-requests',
      'request-log-partitions',
      'roll-up-quotes',
      'pause-losing-arms',
      'send-owner-notifications',
      'forget-spent-rate-limits',
    ]);
  });

  it('the delivery sweep fans out stray events and forwards what Inngest has not acknowledged', async () => {
    const now = new Date('2032-02-01T00:00:00Z');
    const { deliveries } = await endpointWithDeliveries(2, now);
    const sent: DeliveryQueuedEvent[] = [];
    const sweep = createSweepDeliveries({ db: () => db, clock: () => now, send: async (events) => void sent.push(...events) });
    const { result } = await new InngestTestEngine({ function: sweep }).execute();
    expect(result).toMatchObject({ forwarded: 2 });
    expect(sent.map((e) => e.data.deliveryId)).toEqual(deliveries.map((d) => d.id));
    await settle(deliveries);
  });

  it('each minute job is a cron function of its own: the key sweep revokes keys past their grace', async () => {
    const jobs = createMinuteJobs({ db: () => db, clock: () => new Date(), send: async () => undefined });
    expect(jobs.map((f) => f.id())).toEqual([
      'sweep-rotated-keys',
      'expire-quote-intents',
      'cancel-undeliverable-deliveries',
      'forget-idempotent-requests',
      'request-log-partitions',
      'roll-up-quotes',
      'pause-losing-arms',
      'send-owner-notifications',
      'forget-spent-rate-limits',
    ]);
    const key = await createApiKey(testContext(db), { projectId: tenant.projectId, environment: 'live', name: 'grace over' });
    await db.apiKey.update({ where: { id: key.apiKey.id }, data: { status: 'rotating', revokedAt: new Date(Date.now() - 1) } });
    const { result } = await new InngestTestEngine({ function: jobs[0] }).execute();
    expect(result).toEqual({ keysRevoked: 1 });
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: key.apiKey.id } })).toMatchObject({ status: 'revoked' });
  });
});

describe('the service with Inngest as its engine', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  let server: RunningServer | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  it('serves its functions to Inngest only, and hands a quote’s delivery to Inngest right after the write', async () => {
    server = await startNextServer({
      root,
      env: {
        DATABASE_URL: iso.url,
        JOB_RUNNER: 'inngest',
        INNGEST_BASE_URL: inngestApi.url, INNGEST_EVENT_KEY: 'service-event-key',
        INNGEST_SIGNING_KEY: `signkey-test-${'0f'.repeat(32)}`,
        WEB_CONCURRENCY: '1',
      },
      logFile: path.join(root, 'test-results', 'inngest-server.log'),
    });
    // The serve route is there, and takes no request Inngest has not signed.
    const unsigned = await fetch(`${server.url}/api/inngest`);
    expect(unsigned.status).toBe(401);

    const created = await fetch(`${server.url}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: tenant.projectId, environment: 'live', url: 'https://hooks.example.com/q', eventTypes: ['quote_intent.succeeded'] }),
    });
    expect(created.status).toBe(201);
    const endpointId = ((await created.json()) as { data: { endpoint: { id: string } } }).data.endpoint.id;
    const quote = await fetch(`${server.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json' },
      body: JSON.stringify(quoteRequest(tenant)),
    });
    expect(quote.status).toBe(201);
    const [delivery] = await db.webhookDelivery.findMany({ where: { endpointId } });
    // Sent by the server after the write, off the request path: seconds later on a loaded machine.
    const event = await eventually(() => inngestApi.events().find((e) => e.data.deliveryId === delivery.id), 30_000);
    expect(event).toMatchObject({ name: DELIVERY_QUEUED_EVENT, data: { endpointId } });
    expect(inngestApi.received.find((r) => r.events.includes(event))!.key).toBe('service-event-key');
    // Marked forwarded once Inngest has acknowledged the event: the commit follows the answer.
    const forwarded = await eventually(async () => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      return row.forwardCount > 0 && row;
    }, 30_000);
    expect(forwarded).toMatchObject({ forwardCount: 1, status: 'pending' });
  }, 180_000); // the server's start (up to 60 s) and the two bounds above
});
