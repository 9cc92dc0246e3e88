import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import { createApiKey } from '../../lib/keys/create-api-key';
import { api, type ApiResponse } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Tenant, testContext } from '../../lib/testing/factories';
import { flushRequestLog } from '../support/request-log';

const priced = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' } };
const withInspection = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } };
const unknownStoreys = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: null, access: 'easy' } };

/** Every error on this surface: four string fields, request_id equal to x-request-id. */
function expectAccountError(res: ApiResponse, status: number, code: string, param = '') {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), param, request_id: res.headers.get('x-request-id') } });
}

async function key(tenant: Tenant, environment: 'test' | 'live', scopes?: string[]) {
  return (await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment, name: 'account key', scopes })).secret;
}

describe('account-scoped surface (spec 4.3)', () => {
  let tenant: Tenant;
  let readOnly: string;
  beforeAll(async () => {
    tenant = await createTenant();
    readOnly = await key(tenant, 'test', ['accounts:read']);
  });

  it('GET /v1/accounts/current answers for any valid key, with quota headers', async () => {
    const res = await api('GET', '/v1/accounts/current', { key: readOnly });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'account',
      id: tenant.projectId,
      name: expect.any(String),
      environment: 'test',
      scopes: ['accounts:read'],
      entitlements: ['api_access'],
    });
    expect(res.headers.get('ratelimit-limit')).toBe('600');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(600);
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const live = await api('GET', '/v1/accounts/current', { key: tenant.keys.live });
    expect(live.body).toMatchObject({ id: tenant.projectId, environment: 'live' });
  });

  it('answers 401 invalid_api_key and, past revoked_at, revoked_api_key — in the account error shape', async () => {
    expectAccountError(await api('GET', '/v1/accounts/current'), 401, 'invalid_api_key');
    expectAccountError(await api('GET', '/v1/accounts/current', { key: 'sk_live_nope' }), 401, 'invalid_api_key');
    const graceOver = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'rotated' });
    await testDb().apiKey.update({ where: { id: graceOver.apiKey.id }, data: { status: 'rotating', revokedAt: new Date(Date.now() - 1000) } });
    expectAccountError(await api('GET', '/v1/accounts/current', { key: graceOver.secret }), 401, 'revoked_api_key');
    // elsewhere the same key is simply invalid
    const elsewhere = await api('POST', '/v1/quotes', { key: graceOver.secret, body: {} });
    expect(elsewhere.body.error.code).toBe('invalid_api_key');
  });

  it('enforces scopes with 403 insufficient_scope and hides other accounts with 404', async () => {
    const body = { services: [priced] };
    expectAccountError(await api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, { key: readOnly, body }), 403, 'insufficient_scope');
    expect((await api('GET', '/v1/accounts', { key: readOnly })).body).toMatchObject({ object: 'list', data: [{ id: tenant.projectId }] });
    expect((await api('GET', `/v1/accounts/${tenant.projectId}`, { key: readOnly })).status).toBe(200);
    const other = await createTenant();
    expectAccountError(await api('GET', `/v1/accounts/${other.projectId}`, { key: readOnly }), 404, 'not_found', 'id');
    expectAccountError(await api('POST', `/v1/accounts/${other.projectId}/quote-simulations`, { key: tenant.keys.test, body }), 404, 'not_found', 'id');
  });

  it('simulates several services exactly, with ranges for unknown answers, and stores nothing', async () => {
    const before = await testDb().accountQuote.count({ where: { projectId: tenant.projectId } });
    const res = await api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, {
      key: tenant.keys.test,
      body: { services: [priced, unknownStoreys], context: { postcode: 'SW1A 1AA' } },
    });
    expect(res.status).toBe(200);
    const sim = res.body;
    expect(sim).toMatchObject({
      object: 'quote_simulation',
      decision: 'needs_input',
      pricing_mode: 'quote',
      book: { key: expect.any(String), version: 1, currency: 'USD', artifact_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      inspection: { kind: 'site_visit', code: 'inspection_possible' },
    });
    // priced: 15525; unknown storeys, medium, easy access: 15000 (1-2 storeys) .. 19500 (3+)
    expect(sim.total).toEqual({ low_cents: 15525 + 15000, high_cents: 15525 + 19500, currency: 'USD' });
    expect(sim.missing_inputs).toEqual([
      expect.objectContaining({ service: 'window_cleaning', selection: 'storeys', reason: 'unknown', options: expect.arrayContaining([{ value: '4_plus', label: 'Four storeys or more' }]) }),
    ]);
    expect(sim.review_reasons.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['inspection_possible', 'price_range']));
    expect(sim.line_items[0]).toEqual({ source: 'window_cleaning', label: 'Window cleaning', kind: 'base', quantity: 1, total: { low_cents: 12000, high_cents: 12000 } });
    expect(sim.derivation.length).toBeGreaterThan(3);
    expect(await testDb().accountQuote.count({ where: { projectId: tenant.projectId } })).toBe(before);

    const firm = await api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, { key: tenant.keys.test, body: { services: [priced] } });
    expect(firm.body).toMatchObject({ decision: 'priced', pricing_mode: 'instant', total: { low_cents: 15525, high_cents: 15525 }, inspection: { kind: 'none' } });
    const bad = await api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, {
      key: tenant.keys.test,
      body: { services: [{ service: 'pool_cleaning', selections: {} }] },
    });
    expect(bad.body).toMatchObject({ decision: 'failed', pricing_mode: 'unavailable', warnings: [{ code: 'unknown_offering' }] });
  });

  it('follows the publication of the key’s environment: 404 not_found until published, then the version published', async () => {
    const testOnly = await createTenant({ publishTo: ['test'] });
    const body = { services: [priced] };
    const simulate = (secret: string) => api('POST', `/v1/accounts/${testOnly.projectId}/quote-simulations`, { key: secret, body });
    const produce = (secret: string, idem: string) =>
      api('POST', `/v1/accounts/${testOnly.projectId}/quotes`, { key: secret, body, headers: { 'idempotency-key': idem } });
    // Nothing published in Live: spec, simulation and quote all answer the same documented error.
    const unpublished = await simulate(testOnly.keys.live);
    expectAccountError(unpublished, 404, 'not_found');
    expect(unpublished.body.error.message).toBe('No price book is published in this environment.');
    expectAccountError(await api('GET', `/v1/accounts/${testOnly.projectId}/quote-spec`, { key: testOnly.keys.live }), 404, 'not_found');
    const idem = `before-publication-${randomUUID()}`;
    expectAccountError(await produce(testOnly.keys.live, idem), 404, 'not_found');
    expect(await testDb().accountQuote.count({ where: { idempotencyKey: idem } })).toBe(0);
    const firstTest = await simulate(testOnly.keys.test);
    expect(firstTest.body).toMatchObject({ decision: 'priced', book: { version: 1 }, total: { low_cents: 15525 } });
    expect(firstTest.body.book).toEqual({ key: expect.any(String), version: 1, currency: 'USD', artifact_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(firstTest.body.total.currency).toBe('USD');

    // A second version, 10% dearer, published to Live only: Live prices with it, Test stays on 1.
    const dearer = structuredClone(demoBookArtifact) as { offerings: { basePriceMinor: number }[] };
    for (const offering of dearer.offerings) offering.basePriceMinor = Math.round(offering.basePriceMinor * 1.1);
    const version = await createBookVersion(testContext(testDb()), { bookId: testOnly.bookId, artifact: dearer });
    await publishBookVersion(testContext(testDb()), { bookId: testOnly.bookId, versionId: version.id, environment: 'live' });
    const live = (await simulate(testOnly.keys.live)).body;
    expect(live).toMatchObject({ decision: 'priced', book: { version: 2, currency: 'USD', artifact_hash: version.artifactHash } });
    expect(live.total).toMatchObject({ currency: 'USD' });
    expect(live.total.low_cents).toBeGreaterThan(15525);
    // once published, the same Idempotency-Key produces a quote: the 404 stored nothing
    const produced = await produce(testOnly.keys.live, idem);
    expect(produced.status).toBe(201);
    expect(produced.body).toMatchObject({ currency: 'USD', book: { version_id: version.id } });
    expect((await simulate(testOnly.keys.test)).body).toMatchObject({ book: { version: 1 }, total: { low_cents: 15525 } });
    expect((await api('GET', `/v1/accounts/${testOnly.projectId}/quote-spec`, { key: testOnly.keys.live })).body).toMatchObject({
      book: { version: 2, artifact_hash: version.artifactHash },
    });
  });

  it('validates bodies with 400 invalid_request naming the param', async () => {
    const url = `/v1/accounts/${tenant.projectId}/quote-simulations`;
    expectAccountError(await api('POST', url, { key: tenant.keys.test, body: { services: [] } }), 400, 'invalid_request', 'services');
    expectAccountError(await api('POST', url, { key: tenant.keys.test, body: { services: [priced], extra: 1 } }), 400, 'invalid_request', 'extra');
    expectAccountError(
      await api('POST', url, { key: tenant.keys.test, body: { services: [{ service: 'x', selections: { a: 5 } }] } }),
      400,
      'invalid_request',
      'services.0.selections.a',
    );
    expectAccountError(await api('POST', url, { key: tenant.keys.test, rawBody: 'not json' }), 400, 'invalid_request', 'body');
  });

  it('persists quotes idempotently per account and environment, sibling keys included', async () => {
    const url = `/v1/accounts/${tenant.projectId}/quotes`;
    const body = { services: [priced] };
    expectAccountError(await api('POST', url, { key: tenant.keys.test, body }), 400, 'invalid_request', 'idempotency-key');
    expectAccountError(
      await api('POST', url, { key: tenant.keys.test, body, headers: { 'idempotency-key': 'k'.repeat(201) } }),
      400,
      'invalid_request',
      'idempotency-key',
    );
    const idem = `order-${randomUUID()}`;
    const first = await api('POST', url, { key: tenant.keys.test, body, headers: { 'idempotency-key': idem } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'quote',
      state: 'quoted',
      disposition: 'send',
      total: { low_cents: 15525, high_cents: 15525 },
      book: { version_id: tenant.versionId },
      unpriced_reason: null,
    });
    const sibling = await key(tenant, 'test');
    const again = await api('POST', url, { key: sibling, body, headers: { 'idempotency-key': idem } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectAccountError(
      await api('POST', url, { key: tenant.keys.test, body: { services: [withInspection] }, headers: { 'idempotency-key': idem } }),
      409,
      'idempotency_conflict',
      'Idempotency-Key',
    );
    // the same key in Live is another namespace
    const live = await api('POST', url, { key: tenant.keys.live, body, headers: { 'idempotency-key': idem } });
    expect(live.body.quote_id).not.toBe(first.body.quote_id);

    const concurrentKey = `burst-${randomUUID()}`;
    const burst = await Promise.all(Array.from({ length: 20 }, () => api('POST', url, { key: tenant.keys.test, body, headers: { 'idempotency-key': concurrentKey } })));
    expect(new Set(burst.map((r) => r.body.quote_id)).size).toBe(1);
    expect(await testDb().accountQuote.count({ where: { idempotencyKey: concurrentKey } })).toBe(1);
  });

  it('disposes of quotes per the book’s autonomy mode, whatever the key’s scopes', async () => {
    const produce = async (t: Tenant, services: unknown[]) =>
      (await api('POST', `/v1/accounts/${t.projectId}/quotes`, { key: t.keys.live, body: { services }, headers: { 'idempotency-key': randomUUID() } })).body;
    const approval = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    const observe = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'observe' } });
    const cases: [Tenant, unknown[], string, string][] = [
      [tenant, [priced], 'send', 'quoted'],
      [tenant, [withInspection], 'hold', 'awaiting_approval'],
      [tenant, [unknownStoreys], 'unpriced', 'new'],
      [approval, [priced], 'hold', 'awaiting_approval'],
      [approval, [withInspection], 'hold', 'awaiting_approval'],
      [approval, [unknownStoreys], 'unpriced', 'new'],
      [observe, [priced], 'observe', 'observed'],
      [observe, [withInspection], 'observe', 'observed'],
      [observe, [unknownStoreys], 'unpriced', 'new'],
    ];
    for (const [t, services, disposition, state] of cases) {
      const quote = await produce(t, services);
      expect([quote.disposition, quote.state], JSON.stringify(services)).toEqual([disposition, state]);
      if (disposition === 'unpriced') expect(quote.unpriced_reason).toMatchObject({ code: 'needs_input' });
      else expect(quote.unpriced_reason).toBeNull();
    }
  });

  it('confirms commitments on quoted Live quotes only, idempotently', async () => {
    const url = `/v1/accounts/${tenant.projectId}/quotes`;
    const quote = (await api('POST', url, { key: tenant.keys.live, body: { services: [priced] }, headers: { 'idempotency-key': randomUUID() } })).body;
    const confirm = (k: string, quoteId: string, ref: string) =>
      api('POST', `/v1/accounts/${tenant.projectId}/quotes/${quoteId}/commitment/confirm`, { key: k, body: { external_ref: ref } });
    const first = await confirm(tenant.keys.live, quote.quote_id, 'order-1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'commitment', confirmed: true, quote_id: quote.quote_id, external_ref: 'order-1' });
    const again = await confirm(tenant.keys.live, quote.quote_id, 'order-1');
    expect(again.body.commitment_id).toBe(first.body.commitment_id);
    expectAccountError(await confirm(tenant.keys.live, quote.quote_id, 'order-2'), 409, 'conflict', 'external_ref');
    expectAccountError(await confirm(tenant.keys.test, quote.quote_id, 'order-1'), 403, 'forbidden');
    expectAccountError(await confirm(tenant.keys.live, randomUUID(), 'order-1'), 404, 'not_found', 'quoteId');
    const held = (await api('POST', url, { key: tenant.keys.live, body: { services: [withInspection] }, headers: { 'idempotency-key': randomUUID() } })).body;
    expectAccountError(await confirm(tenant.keys.live, held.quote_id, 'order-3'), 409, 'conflict', 'quoteId');
    const noScope = await key(tenant, 'live', ['quotes:write']);
    expectAccountError(await confirm(noScope, quote.quote_id, 'order-1'), 403, 'insufficient_scope');
  });

  it('answers unknown account paths and malformed cursors in the account error shape', async () => {
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/nothing-here`, { key: tenant.keys.test }), 404, 'not_found');
    expectAccountError(
      await api('GET', `/v1/accounts/${tenant.projectId}/request-logs?cursor=99999999999999999999`, { key: tenant.keys.live }),
      400,
      'invalid_request',
      'cursor',
    );
  });

  it('reads the published specification and the account’s own request log', async () => {
    const spec = await api('GET', `/v1/accounts/${tenant.projectId}/quote-spec`, { key: tenant.keys.live });
    expect(spec.body).toMatchObject({ object: 'quote_spec', autonomy: 'autonomous', book: { id: tenant.bookId, version: 1, currency: 'USD' } });
    // What POST /v1/quotes takes: this account's own book and its connected business, no other tenant's.
    expect(spec.body.businesses).toEqual([{ id: tenant.businessId, name: expect.any(String) }]);
    const quoted = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest({ businessId: spec.body.businesses[0].id, bookId: spec.body.book.id }) });
    expect(quoted.status).toBe(201);
    expect(spec.body.services.map((s: { service: string }) => s.service)).toEqual(['window_cleaning', 'gutter_cleaning', 'solar_panel_cleaning']);
    expect(JSON.stringify(spec.body)).not.toContain('basePriceMinor');
    const made = await api('GET', '/v1/accounts/current', { key: tenant.keys.live });
    const requestId = made.headers.get('x-request-id');
    await flushRequestLog();
    const logs = await api('GET', `/v1/accounts/${tenant.projectId}/request-logs?limit=100`, { key: tenant.keys.live });
    expect(logs.body.data.map((l: { request_id: string }) => l.request_id)).toContain(requestId);
    expect(logs.body.data.every((l: { path: string }) => l.path.startsWith('/v1/'))).toBe(true);
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/request-logs`, { key: readOnly }), 403, 'insufficient_scope');
  });

  it('mints keys only for accounts with the api_access feature', async () => {
    const own = await createTenant();
    const admin = await createPerson(own, { permissions: ['api_keys:create'] });
    await testDb().project.update({ where: { id: own.projectId }, data: { entitlements: [] } });
    const res = await api('POST', '/v1/api-keys', { key: admin.token, body: { name: 'x', projectId: own.projectId, environment: 'test' } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/api_access/);
  });
});

describe('account quota: 600 requests per minute per account and environment (spec 8)', () => {
  it('is shared by sibling keys, answers 429 with retry-after, and leaves the other environment alone', async () => {
    const tenant = await createTenant();
    const [a, b] = [await key(tenant, 'test'), await key(tenant, 'test')];
    for (let batch = 0; batch < 30; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api('GET', '/v1/accounts/current', { key: i % 2 ? a : b })),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
    }
    const limited = await api('GET', '/v1/accounts/current', { key: a });
    expectAccountError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect((await api('GET', '/v1/accounts/current', { key: b })).status).toBe(429);
    const live = await api('GET', '/v1/accounts/current', { key: tenant.keys.live });
    expect(live.status).toBe(200);
    expect(Number(live.headers.get('ratelimit-remaining'))).toBe(599);
  });
});
