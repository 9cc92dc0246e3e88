import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import type { Db } from '../../lib/db/client';
import { findFreePort } from '../../lib/db/embedded';
import { createApiKey } from '../../lib/keys/create-api-key';
import { revokeApiKey } from '../../lib/keys/revoke-api-key';
import { eventually } from '../../lib/testing/eventually';
import { childProcesses, lastSenderTo } from '../../lib/testing/processes';
import { createPerson, createTenant, quoteRequest, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { LEASE_MS } from '../../lib/webhooks/claims';
import { webhookWindow } from '../../lib/webhooks/send-window';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';

/**
 * Several instances of the service on one database, as an operator scaling out runs them: A and
 * B (two processes each) healthy, C started with another webhook secret key, which can neither
 * deliver nor sign receipts and says so. Traffic is split between the healthy ones; what the spec
 * promises must hold across all of them, and losing a whole instance mid-burst must lose nothing.
 */
const root = path.resolve(import.meta.dirname, '../..');
const results = path.join(root, 'test-results');
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Person;
let receiver: Receiver;
let endpointId: string;
let a: RunningServer;
let b: RunningServer;
let c: RunningServer;
let deadlocksBefore: number;

const deadlocks = async () =>
  (await db.$queryRaw<{ n: number }[]>`SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`)[0].n;

function instance(name: string, env: Record<string, string> = {}) {
  return findFreePort().then((port) =>
    startNextServer({
      root,
      port,
      env: { DATABASE_URL: iso.url, JOB_RUNNER: 'in-process', WEB_CONCURRENCY: '2', LOG_LEVEL: 'info', ...env },
      logFile: path.join(results, `multi-instance-${name}.log`),
    }),
  );
}

async function post(server: RunningServer, route: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data: Record<string, any>; error?: { code: string; message: string }; requestId: string } };
}

const quote = (server: RunningServer, key: string, extra: Record<string, unknown> = {}) =>
  post(server, '/v1/quotes', quoteRequest(tenant, extra), { authorization: `Bearer ${key}` });

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: 'all' }, db);
  receiver = await startReceiver(() => 200);
  const created = await createEndpoint(testContext(db, { principal: admin.principal }), {
    projectId: tenant.projectId,
    environment: 'live',
    url: receiver.url,
    eventTypes: ['quote_intent.succeeded'],
  });
  endpointId = created.endpoint.id;
  deadlocksBefore = await deadlocks();
  [a, b, c] = await Promise.all([instance('a'), instance('b'), instance('c', { SEALING_KEY: 'ab'.repeat(32), WEB_CONCURRENCY: '1' })]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]); // a lost one's stop() finds it gone
  await receiver?.stop();
  await iso?.close();
});

describe('several instances on one database', () => {
  it('an instance with another sealing key refuses to deliver and to quote (it cannot sign receipts), and says so', async () => {
    const status = async (server: RunningServer) => ((await (await fetch(`${server.url}/v1/status`)).json()) as { data: Record<string, any> }).data;
    expect(await status(a)).toMatchObject({ status: 'ok', jobs: { engine: 'in-process', webhookDelivery: 'running', reason: null } });
    expect(await status(c)).toMatchObject({
      status: 'degraded',
      jobs: { webhookDelivery: 'refused', reason: expect.stringContaining('SEALING_KEY is not the key the secrets in the database were sealed with') },
    });
    // Written by C's runner at its first tick, through a pipe to the file: seconds after its start under load.
    await eventually(() => readFileSync(path.join(results, 'multi-instance-c.log'), 'utf8').includes('webhook delivery refused on this instance'), 30_000);
    const sealed = await post(c, '/v1/webhook-endpoints', { projectId: tenant.projectId, environment: 'test', url: 'https://hooks.example.com/c' }, { authorization: `Bearer ${admin.token}` });
    expect(sealed.status).toBe(503);
    expect(sealed.body.error?.code).toBe('service_unavailable');
    // A receipt is a signed promise: an instance that cannot open the signing key makes none.
    const refused = await quote(c, tenant.keys.live);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('Receipts cannot be signed on this instance') });
    expect(await db.quoteIntent.count({ where: { requestCorrelationId: refused.body.requestId } })).toBe(0);
    // A load balancer's readiness check keeps it out of rotation; the others are in.
    const ready = async (server: RunningServer) => {
      const res = await fetch(`${server.url}/v1/status/ready`);
      return { status: res.status, body: (await res.json()) as { data?: { ready: boolean; receiptSigningKid: string }; error?: { code: string; message: string } } };
    };
    const [readyA, readyB, readyC] = await Promise.all([ready(a), ready(b), ready(c)]);
    expect([readyA.status, readyB.status, readyC.status]).toEqual([200, 200, 503]);
    expect(readyA.body.data).toMatchObject({ ready: true, receiptSigningKid: expect.stringMatching(/^rsk_/) });
    expect(readyB.body.data?.receiptSigningKid).toBe(readyA.body.data?.receiptSigningKid);
    expect(readyC.body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('cannot sign receipts, so it cannot quote') });
  });

  it('the public quote limit is exact across instances', async () => {
    const servers = [a, b];
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) => post(servers[i % 2], '/v1/public_quotes', { businessId: tenant.businessId, ...demoExample })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(120);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
  });

  it('one intent per idempotency key, with concurrent requests split across instances', async () => {
    const servers = [a, b];
    for (let round = 0; round < 10; round++) {
      const idempotencyKey = `split-${round}-${randomUUID()}`;
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => quote(servers[i % 2], tenant.keys.live, { idempotencyKey })));
      expect(answers.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      expect(new Set(answers.map((r) => r.body.data.quoteIntent.id)).size).toBe(1);
    }
  });

  it('a revoked key is refused by every instance at once, and a new publication is priced by every instance at once', async () => {
    const key = await createApiKey(testContext(db), { projectId: tenant.projectId, environment: 'live', name: 'soon revoked' });
    for (const server of [a, b]) expect((await quote(server, key.secret)).status).toBe(201); // remembered by each
    await revokeApiKey(testContext(db, { principal: admin.principal }), { keyId: key.apiKey.id });
    for (const server of [a, b, c]) expect((await quote(server, key.secret)).status).toBe(401);

    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const v2 = await createBookVersion(testContext(db), { bookId: tenant.bookId, artifact: cheaper });
    await publishBookVersion(testContext(db), { bookId: tenant.bookId, versionId: v2.id, environment: 'live' });
    for (const server of [a, b]) expect((await quote(server, tenant.keys.live)).body.data.quoteIntent.bookVersionId).toBe(v2.id);
  });

  it('each delivery is sent exactly once, by a healthy instance, with no deadlock', async () => {
    const intents = await db.quoteIntent.count({ where: { environmentId: tenant.environments.live, status: 'succeeded' } });
    // Well over a hundred deliveries by the instances' runners: slower on a loaded machine.
    await eventually(async () => (await db.webhookDelivery.count({ where: { endpointId, status: 'succeeded' } })) === intents, 90_000, 100);
    const ids = receiver.received.map((r) => String(r.headers['service-delivery-id']));
    expect(ids).toHaveLength(intents);
    expect(new Set(ids).size).toBe(intents);
    expect(receiver.received.every((r) => r.headers['service-attempt'] === '1')).toBe(true);
    expect(await deadlocks()).toBe(deadlocksBefore);
  }, 120_000);

  it('losing an instance mid-burst loses nothing; the other takes its deliveries over within the lease', async () => {
    const before = receiver.received.length;
    const created: string[] = [];
    let lost: RunningServer | undefined;
    let killedAt = 0;
    let killedAtDelivered = 0;
    // At least 300 quotes, and on until the kill: the deliveries may lag far behind fast quotes.
    let sent = 0;
    while (sent < 300 || (!lost && sent < 3000)) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, j) => quote(lost ? (lost === a ? b : a) : (sent + j) % 2 === 0 ? a : b, tenant.keys.live).catch(() => null)),
      );
      sent += batch.length;
      for (const answer of batch) if (answer?.status === 201) created.push(answer.body.data.quoteIntent.id);
      if (!lost && receiver.received.length - before >= 90) {
        // The machine that is sending is lost: every process of that instance at once.
        const sender = lastSenderTo(new URL(receiver.url).port);
        lost = [a, b].find((server) => sender !== undefined && processesOf(server).includes(sender)) ?? a;
        for (const pid of processesOf(lost).reverse()) process.kill(pid, 'SIGKILL');
        killedAt = Date.now();
        killedAtDelivered = receiver.received.length - before;
      }
    }
    expect(killedAt).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThanOrEqual(sent - 10); // only requests in flight to A at the kill may have failed

    // Every quote answered 201 is there, and its delivery arrives.
    expect(await db.quoteIntent.count({ where: { id: { in: created } } })).toBe(created.length);
    await eventually(
      async () => (await db.webhookDelivery.count({ where: { endpointId, status: 'succeeded', event: { subjectId: { in: created } } } })) === created.length,
      // The lease, then the backlog of up to thousands of quotes from the one instance left: slow under load.
      LEASE_MS + 90_000,
      100,
    );
    const arrivals = receiver.received.slice(before);
    const distinct = new Set(arrivals.map((r) => String(r.headers['service-delivery-id'])));
    const duplicates = arrivals.length - distinct.size;
    // Only the sends A had in flight (one endpoint: at most its window) can arrive twice, and
    // each second copy says it is a later attempt.
    expect(duplicates).toBeLessThanOrEqual(webhookWindow().size);
    const resent = arrivals.filter((r, i) => arrivals.findIndex((x) => x.headers['service-delivery-id'] === r.headers['service-delivery-id']) !== i);
    expect(resent.every((r) => Number(r.headers['service-attempt']) >= 2)).toBe(true);
    expect(await deadlocks()).toBe(deadlocksBefore);
    const lastArrival = Math.max(...arrivals.map((r) => r.receivedAt.getTime()));
    writeFileSync(
      path.join(results, 'multi-instance-kill.json'),
      `${JSON.stringify({ lost: lost === a ? 'a' : 'b', created: created.length, killedAtDelivered, duplicates, lastArrivalAfterKillMs: lastArrival - killedAt, resentAfterKillMs: resent.map((r) => r.receivedAt.getTime() - killedAt) }, null, 2)}\n`,
    );
  }, 240_000); // the burst and the take-over's bound above
});

/** The processes of a running instance: its primary, then its workers. */
function processesOf(server: RunningServer): number[] {
  return [server.process.pid!, ...childProcesses(server.process.pid!)];
}
