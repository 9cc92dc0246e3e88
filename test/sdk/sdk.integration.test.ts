import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { deliverThrough } from '../../lib/webhooks/deliver-due-webhooks';
import { startApiServer, type ApiServer } from '../support/api-server';
import { flushRequestLog } from '../support/request-log';
import {
  createClient,
  assignArm,
  QuotePricingError,
  receipts,
  webhooks,
  WebhookVerificationError,
  type QuotePricingClient,
  type ReceiptKeySet,
} from '../../sdk/src/index';

/**
 * The SDK as an integrator uses it: against the service over real HTTP (its router and edge,
 * served by this process: test/support/api-server.ts) on the real database, a webhook sent by
 * the delivery job (driven here) to a real HTTPS receiver.
 */
let server: ApiServer;
let tenant: Tenant;
let admin: Person;
let receiver: Receiver;
let test: QuotePricingClient;
let live: QuotePricingClient;
let member: QuotePricingClient;

/** A fetch that adds `Test-Fault` to the first `times` requests it makes: the real service answers them. */
function faultyFetch(fault: string, times: number, seen: Request[] = []) {
  let left = times;
  return Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (left-- > 0) request.headers.set('test-fault', fault);
      seen.push(request.clone());
      return fetch(request);
    },
    { seen },
  );
}

/** A client of the service, as an integrator makes one. */
const clientOf = (options: Omit<Parameters<typeof createClient>[0], 'baseUrl'> = {}) => createClient({ baseUrl: server.url, ...options });

beforeAll(async () => {
  tenant = await createTenant();
  admin = await createPerson(tenant, { permissions: 'all' });
  receiver = await startReceiver();
  server = await startApiServer();
  test = clientOf({ apiKey: tenant.keys.test });
  live = clientOf({ apiKey: tenant.keys.live });
  member = clientOf({ apiKey: admin.token });
});

afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

describe('the SDK against the service', () => {
  it('calls each family of operations by name', async () => {
    const quote = await test.createQuote({ body: quoteRequest(tenant) });
    expect(quote.quoteReceipt.computation?.totalMinor).toBe(15525);
    const anonymous = clientOf();
    const hosted = await anonymous.createPublicQuote({ body: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } } });
    expect(hosted.quoteIntent.source).toBe('hosted');
    const again = await anonymous.request('getPublicQuote', { path: { quoteIntentId: hosted.quoteIntent.id } });
    expect(again.data.quoteIntent.id).toBe(hosted.quoteIntent.id);
    expect((await anonymous.getStatus()).status).toBe('ok');

    const businesses = await member.listBusinesses();
    expect(businesses.businesses.map((b) => b.id)).toContain(tenant.businessId);
    const books = await member.listBooks({ query: { projectId: tenant.projectId } });
    expect(books.books.map((b) => b.id)).toContain(tenant.bookId);
    const owner = clientOf({ apiKey: (await createPerson(tenant, { businessRole: 'owner' })).token });
    const invited = await owner.inviteMember({ path: { businessId: tenant.businessId }, body: { email: 'sam@example.test', role: 'viewer' } });
    const members = await owner.listMembers({ path: { businessId: tenant.businessId } });
    expect(members.members.map((m) => m.id)).toContain(invited.member.id);
    const keys = await member.listApiKeys({ query: { projectId: tenant.projectId } });
    expect(keys.apiKeys.length).toBeGreaterThan(0);
    const endpoints = await member.listWebhookEndpoints({ query: { projectId: tenant.projectId } });
    expect(Array.isArray(endpoints.endpoints)).toBe(true);
    const trace = await member.traceQuote({ path: { id: quote.quoteIntent.id } });
    expect(trace.quoteIntent.id).toBe(quote.quoteIntent.id);
    await flushRequestLog();
    const logs = await member.listRequestLogs({ query: { businessId: tenant.businessId } });
    expect(logs.logs.length).toBeGreaterThan(0);
    expect(logs.logs.every((row) => row.businessId === tenant.businessId)).toBe(true);
    // The account surface answers without the envelope.
    const account = await test.getCurrentAccount();
    expect(account.id).toBeTruthy();
  });

  it('throws typed errors from both envelopes, with the request id', async () => {
    const standard = await test.createQuote({ body: { ...quoteRequest(tenant), factors: 'none' as never } }).catch((error: unknown) => error);
    expect(standard).toBeInstanceOf(QuotePricingError);
    expect(standard).toMatchObject({ status: 422, code: 'invalid_quote_request', surface: 'standard' });
    expect((standard as QuotePricingError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const account = await test.getAccount({ path: { id: '00000000-0000-4000-8000-000000000000' } }).catch((error: unknown) => error);
    expect(account).toBeInstanceOf(QuotePricingError);
    expect(account).toMatchObject({ status: 404, code: 'not_found', surface: 'account' });
    expect((account as QuotePricingError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const unauthenticated = await clientOf({ apiKey: 'qps_test_nope' }).createQuote({ body: quoteRequest(tenant) }).catch((e: unknown) => e);
    expect(unauthenticated).toMatchObject({ status: 401 });
  });

  it('retries an injected 500 and 503 under the same idempotency key: one quote, answered once', async () => {
    for (const fault of ['server_error', 'unavailable']) {
      const faulty = faultyFetch(fault, 1);
      const client = clientOf({ apiKey: tenant.keys.test, fetch: faulty });
      const result = await client.request('createQuote', { body: quoteRequest(tenant) });
      expect(result.status).toBe(201);
      expect(result.attempts).toBe(2);
      const keysSent = faulty.seen.map((r) => r.headers.get('idempotency-key'));
      expect(keysSent).toEqual([result.idempotencyKey, result.idempotencyKey]);
      expect(await testDb().quoteIntent.count({ where: { idempotencyKey: result.idempotencyKey! } })).toBe(1);
    }
  });

  it('waits out an injected 429 for its retry-after, and gives up where the wait is longer than allowed', async () => {
    const client = clientOf({ apiKey: tenant.keys.test, fetch: faultyFetch('rate_limited', 1) });
    const started = Date.now();
    const result = await client.request('createQuote', { body: quoteRequest(tenant) });
    expect(result.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // retry-after: 1

    const impatient = clientOf({ apiKey: tenant.keys.test, fetch: faultyFetch('rate_limited', 1), maxRetryWaitMs: 100 });
    const refused = await impatient.createQuote({ body: quoteRequest(tenant) }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
  });

  it('retries every keyed write under its key, does not replay the write that has none, and Live refuses Test-Fault without a retry', async () => {
    const faulty = faultyFetch('server_error', 5);
    const client = clientOf({ apiKey: tenant.keys.test, fetch: faulty });
    // A GET is safe to send again: three attempts, then the error.
    const read = await client.getCurrentAccount().catch((e: unknown) => e);
    expect(read).toMatchObject({ status: 500, code: 'internal_error', surface: 'account' });
    expect(faulty.seen).toHaveLength(3);

    // Every write the service keys is retried under one key: a simulation too (answered once).
    const keyed = faultyFetch('server_error', 5);
    const simulating = clientOf({ apiKey: tenant.keys.test, fetch: keyed });
    const account = await test.getCurrentAccount();
    const simulated = await simulating.simulateQuote({ path: { id: account.id }, body: { services: [] } as never }).catch((e: unknown) => e);
    expect(simulated).toMatchObject({ status: 500 });
    expect(new Set(keyed.seen.map((r) => r.headers.get('idempotency-key')))).toEqual(new Set([expect.any(String)]));
    expect(keyed.seen).toHaveLength(3);

    // The one write it takes no key for (measuring a draft's impact: nothing stored) is sent once: the 500 goes to the caller.
    const seen: Request[] = [];
    const failing = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return Response.json({ error: { code: 'internal_error', message: 'Something went wrong on our side.', requestId: 'r' } }, { status: 500 });
    };
    const measuring = clientOf({ apiKey: admin.token, fetch: failing });
    const measured = await measuring.request('measureDraftImpact', { path: { bookId: tenant.bookId }, body: { window: '24h', environment: 'live' } }).catch((e: unknown) => e);
    expect(measured).toMatchObject({ status: 500 });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.get('idempotency-key')).toBeNull();

    const liveFault = await live.createQuote({ body: quoteRequest(tenant), headers: { 'Test-Fault': 'server_error' } }).catch((e: unknown) => e);
    expect(liveFault).toMatchObject({ status: 400, code: 'invalid_request', message: expect.stringContaining('Live key') });
  });

  it('pages through a list with an async iterator', async () => {
    for (let i = 0; i < 3; i++) await live.createQuote({ body: quoteRequest(tenant) });
    const seen: string[] = [];
    for await (const quote of member.paginate('listBusinessQuotes', { path: { businessId: tenant.businessId }, query: { limit: 2 } })) seen.push(quote.id);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('receives a webhook and verifies it with the endpoint secret', async () => {
    const { secret: shownOnce, endpoint: { id: endpointId } } = await member.createWebhookEndpoint({
      body: { projectId: tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['quote_intent.succeeded'] },
    });
    const secret = shownOnce!;
    const quote = await live.createQuote({ body: quoteRequest(tenant) });
    // The delivery job's pass for this quote's delivery (the job runner's work, driven here).
    const delivery = await testDb().webhookDelivery.findFirstOrThrow({ where: { endpointId, event: { subjectId: quote.quoteIntent.id } } });
    expect(await deliverThrough(testContext(testDb()), { deliveryId: delivery.id })).toMatchObject({ status: 'succeeded' });
    const got = receiver.received.find((r) => r.rawBody.includes(quote.quoteIntent.id))!;
    const event = webhooks.verify(got.rawBody, got.headers, secret);
    expect(event).toMatchObject({ type: 'quote_intent.succeeded', data: { quoteIntent: { id: quote.quoteIntent.id } } });
    expect(() => webhooks.verify(got.rawBody, got.headers, 'whsec_wrong')).toThrow(WebhookVerificationError);
    expect(() => webhooks.verify(got.rawBody.replace('succeeded', 'failed'), got.headers, secret)).toThrow(/No signature matches/);
    const late = new Date(Date.now() + 10 * 60_000);
    expect(() => webhooks.verify(got.rawBody, got.headers, secret, { now: late })).toThrow(expect.objectContaining({ reason: 'timestamp_outside_tolerance' }));
  });

  it('verifies a receipt offline, and fetches the keys again for a kid it does not know', async () => {
    const { quoteReceipt } = await live.createQuote({ body: quoteRequest(tenant) });
    expect(await receipts.verify(quoteReceipt, test.receiptKeys)).toEqual({ status: 'verified', kid: quoteReceipt.signature!.kid });

    // Offline: a key set kept as a file; an altered price fails.
    const keySet = JSON.parse(JSON.stringify(await test.listReceiptSigningKeys())) as ReceiptKeySet;
    expect((await receipts.verify(quoteReceipt, keySet)).status).toBe('verified');
    const altered = { ...quoteReceipt, computation: { ...quoteReceipt.computation!, totalMinor: 1 } };
    expect((await receipts.verify(altered, keySet)).status).toBe('bad_signature');
    expect((await receipts.verify({ ...quoteReceipt, signature: null }, keySet)).status).toBe('unsigned');

    // A stale set (no keys yet) is fetched again once, when the receipt names a kid it lacks.
    let fetches = 0;
    const source = receipts.cachedKeySet(async () => (fetches++ === 0 ? { keys: [] } : keySet));
    expect((await receipts.verify(quoteReceipt, source)).status).toBe('verified');
    expect(fetches).toBe(2);
    expect((await receipts.verify(quoteReceipt, { keys: [] })).status).toBe('unknown_kid');
  });

  it('prices a subject with its experiment arm on both quote surfaces (`subject`), and receipts.verify recomputes the arm', async () => {
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 14000;
    const variant = await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper });
    const experiments = member.books(tenant.bookId).experiments;
    const { experiment: draft } = await experiments.create({
      environment: 'test',
      name: 'SDK subjects',
      controlWeight: 50,
      variants: [{ versionId: variant.id, weight: 50 }],
      surfaces: ['api', 'account'],
    });
    const { experiment } = await experiments.start(draft.id);
    try {
      const armOf = (subject: string) => assignArm(experiment, { subject }).arm;
      // A subject the variant gets (the experiment's salt is new each run: five names missed it one run in 32).
      const subject = Array.from({ length: 200 }, (_, i) => `customer-${i + 1}`).find((s) => armOf(s) === 'variant_1')!;
      expect(subject).toBeDefined();
      const { quoteReceipt } = await test.quotes.create(quoteRequest(tenant), { subject });
      expect(quoteReceipt.experiment).toMatchObject({ experimentId: experiment.id, arm: 'variant_1' });
      expect(await receipts.verify(quoteReceipt, test.receiptKeys, { experiment, subject })).toMatchObject({
        status: 'verified',
        experiment: { status: 'matches', arm: 'variant_1' },
      });
      const accountQuote = await test.accounts(tenant.projectId).quotes.create(
        { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
        { subject },
      );
      expect(accountQuote.experiment).toMatchObject({ experiment_id: experiment.id, arm: 'variant_1' });
      expect(accountQuote.book.version_id).toBe(variant.id);
      expect((await receipts.verify(accountQuote, test.receiptKeys, { experiment, subject })).experiment).toMatchObject({ status: 'matches' });
      // Only quote operations take a subject.
      await expect(test.request('getCurrentAccount', { subject } as never)).rejects.toThrow(/takes no subject/);
    } finally {
      await experiments.stop(experiment.id);
    }
  });
});
