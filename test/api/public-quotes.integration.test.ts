import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import { serviceFetch } from '../support/service-fetch';
import { api } from '../support/api-client';
import { quoteRequest, createTenant, testDb, type Tenant, testContext } from '../../lib/testing/factories';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /v1/public_quotes', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('creates an intent and its receipt against the Live publication', async () => {
    const res = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    expect(res.status).toBe(201);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(UUID);
    expect(res.body.requestId).toBe(requestId);
    const { quoteIntent, quoteReceipt } = res.body.data;
    expect(quoteIntent).toMatchObject({
      workspaceId: tenant.workspaceId,
      projectId: tenant.projectId,
      environmentId: tenant.environments.live,
      bookId: tenant.bookId,
      bookVersionId: tenant.versionId,
      status: 'succeeded',
      source: 'hosted',
      requestCorrelationId: requestId,
      inputs: demoExample,
    });
    // Priced: the price holds for the book's validity (30 days by default).
    expect(Date.parse(quoteIntent.expiresAt)).toBe(Date.parse(quoteIntent.createdAt) + 30 * 86_400_000);
    expect(quoteIntent.idempotencyKey).toMatch(/^auto_[0-9a-f-]{36}$/);
    expect(quoteReceipt).toMatchObject({
      quoteIntentId: quoteIntent.id,
      outcome: 'succeeded',
      source: 'hosted',
      bookVersionId: tenant.versionId,
      missingInputs: [],
      failure: null,
      idempotencyKey: quoteIntent.idempotencyKey,
      requestCorrelationId: requestId,
    });
    expect(quoteReceipt.latencyMs).toBeGreaterThanOrEqual(0);
    const c = quoteReceipt.computation;
    expect(c.currency).toBe('USD');
    // window cleaning, medium home (+25%), 2 storeys, monthly (-10%), difficult access (+15%)
    // 12000 -> +3000 -> 15000 -> +2250 -> 17250 -> -1725 -> 15525
    expect(c.totalMinor).toBe(15525);
    expect(c.lineItems.reduce((s: number, li: { amountMinor: number }) => s + li.amountMinor, 0)).toBe(c.totalMinor);
    expect(c.paymentTerms.depositMinor + c.paymentTerms.balanceDueMinor).toBe(c.totalMinor);
    expect(c.derivation.length).toBe(demoBookArtifact.rules.length + 1);
  });

  it('asks for what is missing, with an expiry, and lets the intent expire', async () => {
    const res = await api('POST', '/v1/public_quotes', {
      body: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors: { storeys: null } },
    });
    expect(res.status).toBe(201);
    const { quoteIntent, quoteReceipt } = res.body.data;
    expect(quoteIntent.status).toBe('requires_input');
    expect(quoteReceipt).toMatchObject({
      outcome: 'requires_input',
      computation: null,
      failure: null,
      // access is asked but not given (its `assume` policy only covers an explicit null)
      missingInputs: ['factors.home_size', 'factors.storeys', 'factors.access'],
    });
    expect(new Date(quoteIntent.expiresAt).getTime()).toBeGreaterThan(Date.now());

    const fresh = await api('GET', `/v1/public_quotes/${quoteIntent.id}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.quoteIntent.status).toBe('requires_input');

    await testDb().quoteIntent.update({ where: { id: quoteIntent.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await api('GET', `/v1/public_quotes/${quoteIntent.id}`);
    expect(expired.body.data.quoteIntent.status).toBe('expired');
    expect(expired.body.data.quoteReceipt).toEqual(quoteReceipt);
  });

  it('records failures in the receipt with the spec codes', async () => {
    const cases = [
      [{ offeringId: 'pool_cleaning' }, 'unknown_offering'],
      [{ offeringId: 'window_cleaning', factors: { colour: 'red' } }, 'unknown_factor'],
      [{ offeringId: 'window_cleaning', factors: { storeys: '12' } }, 'unknown_factor_option'],
    ] as const;
    for (const [body, code] of cases) {
      const res = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...body } });
      expect(res.status).toBe(201);
      expect(res.body.data.quoteIntent.status).toBe('failed');
      expect(res.body.data.quoteReceipt).toMatchObject({ outcome: 'failed', computation: null, missingInputs: [] });
      expect(res.body.data.quoteReceipt.failure.code).toBe(code);
    }
  });

  it('pins the version published when the quote was made', async () => {
    const own = await createTenant();
    const first = await api('POST', '/v1/public_quotes', { body: { businessId: own.businessId, ...demoExample } });
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const v2 = await createBookVersion(testContext(testDb()), { bookId: own.bookId, artifact: cheaper });
    await publishBookVersion(testContext(testDb()), { bookId: own.bookId, versionId: v2.id, environment: 'live' });
    const second = await api('POST', '/v1/public_quotes', { body: { businessId: own.businessId, ...demoExample } });
    expect(second.body.data.quoteIntent.bookVersionId).toBe(v2.id);
    expect(second.body.data.quoteReceipt.computation.totalMinor).toBeLessThan(
      first.body.data.quoteReceipt.computation.totalMinor,
    );
    const again = await api('GET', `/v1/public_quotes/${first.body.data.quoteIntent.id}`);
    expect(again.body.data.quoteIntent.bookVersionId).toBe(own.versionId);
    expect(again.body.data.quoteReceipt).toEqual(first.body.data.quoteReceipt);
  });

  it('stops answering for a business as soon as its connection ends, replays included', async () => {
    const own = await createTenant();
    const idempotencyKey = `before-${randomUUID()}`;
    expect((await api('POST', '/v1/public_quotes', { body: { businessId: own.businessId, ...demoExample, idempotencyKey } })).status).toBe(201);
    await testDb().connection.updateMany({ where: { businessId: own.businessId }, data: { status: 'inactive' } });
    // A new quote, and a replay of the one this process wrote (whose key it remembers as stored).
    for (const body of [{ businessId: own.businessId, ...demoExample }, { businessId: own.businessId, ...demoExample, idempotencyKey }]) {
      const after = await api('POST', '/v1/public_quotes', { body });
      expect(after.status).toBe(404);
      expect(after.body.error.code).toBe('quote_surface_unavailable');
    }
  });

  it('answers 404 quote_surface_unavailable for unknown, disconnected or unpublished businesses', async () => {
    const inactive = await createTenant({ connectionStatus: 'inactive' });
    const testOnly = await createTenant({ publishTo: ['test'] });
    for (const businessId of [randomUUID(), inactive.businessId, testOnly.businessId]) {
      const res = await api('POST', '/v1/public_quotes', { body: { businessId, ...demoExample } });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'quote_surface_unavailable', requestId: res.headers.get('x-request-id') });
    }
  });

  it('refuses invalid bodies with 422 invalid_quote_request and details.fields', async () => {
    const cases: [unknown, string][] = [
      [{ offeringId: 'x' }, 'businessId'],
      [{ businessId: 'not-a-uuid', offeringId: 'x' }, 'businessId'],
      [{ businessId: tenant.businessId, offeringId: 'x'.repeat(81) }, 'offeringId'],
      [{ businessId: tenant.businessId, offeringId: 'x', factors: { a: 'y'.repeat(201) } }, 'factors.a'],
      [{ businessId: tenant.businessId, offeringId: 'x', factors: { a: 3 } }, 'factors.a'],
      [{ businessId: tenant.businessId, offeringId: 'x', idempotencyKey: 'short' }, 'idempotencyKey'],
      [{ businessId: tenant.businessId, offeringId: 'x', idempotencyKey: 'k'.repeat(121) }, 'idempotencyKey'],
      [{ businessId: tenant.businessId, offeringId: 'x', bookId: randomUUID() }, 'bookId'],
      [[1, 2], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/v1/public_quotes', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('invalid_quote_request');
      expect(Object.keys(res.body.error.details.fields)).toContain(field);
      expect(res.body.error.details.fields[field].every((m: unknown) => typeof m === 'string')).toBe(true);
    }
  });

  it('answers malformed and oversized bodies with a clear 4xx, never a 500', async () => {
    const malformed = await api('POST', '/v1/public_quotes', { rawBody: '{"businessId":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.details.fields.body).toBeDefined();
    const empty = await api('POST', '/v1/public_quotes', { rawBody: '' });
    expect(empty.status).toBe(422);
    const surrogate = await api('POST', '/v1/public_quotes', {
      rawBody: `{"businessId":"${tenant.businessId}","offeringId":"window_cleaning","factors":{"storeys":"\\ud800"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(surrogate.status).toBe(422);
    expect(surrogate.body.error.details.fields['factors.storeys']).toEqual(['must not contain unpaired surrogates']);
    const huge = await api('POST', '/v1/public_quotes', {
      body: { businessId: tenant.businessId, offeringId: 'x', factors: { a: 'y'.repeat(200_000) } },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });

  it('does not show API-key quotes on the anonymous route, and 404s unknown ids', async () => {
    const made = await api('POST', '/v1/quotes', {
      key: tenant.keys.live,
      body: quoteRequest(tenant),
    });
    expect(made.status).toBe(201);
    for (const id of [made.body.data.quoteIntent.id, randomUUID(), 'not-a-uuid']) {
      const res = await api('GET', `/v1/public_quotes/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /v1/status and unknown paths', () => {
  it('answers liveness anonymously', async () => {
    const res = await api('GET', '/v1/status');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ok');
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('answers a method a route does not have with 405 in the envelope, an Allow header and a request id', async () => {
    const res = await serviceFetch('/v1/public_quotes', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 'method_not_allowed', requestId: res.headers.get('x-request-id') });
    const account = await serviceFetch('/v1/accounts/current', { method: 'DELETE' });
    expect(account.status).toBe(405);
    expect((await account.json()).error).toMatchObject({ code: 'method_not_allowed', param: '', request_id: account.headers.get('x-request-id') });
  });

  it('answers unknown /v1 paths with a JSON 404', async () => {
    const res = await api('POST', '/v1/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
  });
});
