import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/create-api-key';
import { createPerson, createTenant, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { signedBy, startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';
import { eventually } from '../../lib/testing/eventually';

/**
 * The service as deployed by default: `next start` with its in-process job runner, on a
 * database of its own, delivering to a real HTTPS receiver; then stopped and started again.
 */
const root = path.resolve(import.meta.dirname, '../..');
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let server: RunningServer | undefined;
let tenant: Tenant;
let admin: Person;
let receiver: Receiver;
let failNext = 0;

async function startService() {
  server = await startNextServer({
    root,
    env: { DATABASE_URL: iso.url, JOB_RUNNER: 'in-process' },
    logFile: path.join(root, 'test-results', 'runner-server.log'),
  });
  return server;
}

async function call(method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${server!.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}


beforeAll(async () => {
  iso = await createIsolatedDatabase();
  tenant = await createTenant({}, iso.db);
  admin = await createPerson(tenant, { permissions: 'all' }, iso.db);
  receiver = await startReceiver(() => (failNext-- > 0 ? 500 : 200));
  await startService();
  // the runner first dispatches the tenant's own set-up events, before any endpoint exists (its
  // first ticks can trail the server's start by seconds on a loaded machine)
  await eventually(async () => ((await iso.db.outboxEvent.count({ where: { dispatchedAt: null } })) === 0 ? true : undefined), 30_000);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  await iso?.close();
});

const quoteBody = () => ({
  businessId: tenant.businessId,
  bookId: tenant.bookId,
  offeringId: 'window_cleaning',
  factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
});

describe('in-process job runner', () => {
  let secret: string;

  it('delivers a quote’s event, signed, with the receipt the quote returned', async () => {
    const created = await call('POST', '/v1/webhook-endpoints', admin.token, {
      projectId: tenant.projectId,
      environment: 'live',
      url: receiver.url,
      eventTypes: ['quote_intent.succeeded'],
    });
    expect(created.status).toBe(201);
    secret = created.body.data.secret;
    expect(secret).toMatch(/^whsec_/);

    const quote = await call('POST', '/v1/quotes', tenant.keys.live, quoteBody());
    expect(quote.status).toBe(201);
    // The server's runner: a tick, a claim and a send, seconds on a loaded machine.
    const got = await eventually(() => receiver.received.find((r) => JSON.parse(r.rawBody).data.quoteIntent.id === quote.body.data.quoteIntent.id), 30_000);
    // How soon it arrives is measured by `npm run bench -- --only webhooks` (idle latency), not here.
    const envelope = JSON.parse(got.rawBody);
    expect(envelope).toMatchObject({ type: 'quote_intent.succeeded', version: 1, businessId: tenant.businessId });
    // The payload is the quote as the API answered it (the computation put back from the receipt)…
    expect(envelope.data).toEqual(quote.body.data);
    expect(envelope.data.quoteReceipt.computation.totalMinor).toBe(quote.body.data.quoteReceipt.computation.totalMinor);
    expect(signedBy(got, secret)).toBe(true);
    // …though the event row keeps the computation only in its receipt, not a second copy.
    const stored = await iso.db.outboxEvent.findFirstOrThrow({ where: { subjectId: quote.body.data.quoteIntent.id } });
    expect(stored.receiptId).toBe(quote.body.data.quoteReceipt.id);
    expect((stored.data as { quoteReceipt: { computation: unknown } }).quoteReceipt.computation).toBeNull();
  });

  it('loses nothing when the service restarts between attempts', async () => {
    failNext = 1;
    const before = receiver.received.length;
    const quote = await call('POST', '/v1/quotes', tenant.keys.live, quoteBody());
    const quoteId = quote.body.data.quoteIntent.id;
    const delivery = await eventually(async () => {
      const row = await iso.db.webhookDelivery.findFirst({
        where: { event: { data: { path: ['quoteIntent', 'id'], equals: quoteId } } },
        include: { attempts: true },
      });
      // its first attempt's outcome recorded (the attempt itself is recorded before it is sent)
      return row && row.attempts.length === 1 && row.attempts[0].state === 'ended' ? row : undefined;
    }, 30_000);
    expect(delivery.attempts[0].responseStatus).toBe(500);
    expect(delivery.status).toBe('pending');

    await server!.stop();
    // time passes while the service is down: the retry falls due
    await iso.db.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    await startService();

    const done = await eventually(async () => {
      const row = await iso.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, include: { attempts: true } });
      return row.status === 'succeeded' ? row : undefined;
    }, 30_000); // the restarted server's first ticks, as in beforeAll
    expect(done.attempts.map((a) => a.responseStatus).sort()).toEqual([200, 500]);
    const forQuote = receiver.received.slice(before).filter((r) => JSON.parse(r.rawBody).data.quoteIntent.id === quoteId);
    expect(forQuote).toHaveLength(2);
    expect(forQuote[0].rawBody).toBe(forQuote[1].rawBody);
  }, 180_000); // a stop (up to 30 s), a start (up to 60 s) and the bounds above

  it('ends rotation grace windows in the sweep', async () => {
    const key = await createApiKey(testContext(iso.db), { projectId: tenant.projectId, environment: 'test', name: 'rotating' });
    await iso.db.apiKey.update({ where: { id: key.apiKey.id }, data: { status: 'rotating', revokedAt: new Date(Date.now() - 1000) } });
    // the minute job runs at start; restart so that it runs now
    await server!.stop();
    await startService();
    await eventually(async () =>
      (await iso.db.apiKey.findUniqueOrThrow({ where: { id: key.apiKey.id } })).status === 'revoked' ? true : undefined,
    // the first pass of the minute jobs follows the start; on a loaded machine the start's own work comes first
    30_000);
  }, 180_000); // a stop (up to 30 s), a start (up to 60 s) and the bound above
});
