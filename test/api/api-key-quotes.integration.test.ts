import { systemContext } from '../../lib/context/verb-context';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import { createApiKey } from '../../lib/keys/create-api-key';
import { createQuote } from '../../lib/quotes/create-quote';
import { ServiceError } from '../../lib/errors/service-error';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Tenant, testContext } from '../../lib/testing/factories';


describe('POST /v1/quotes', () => {
  let tenant: Tenant;
  let other: Tenant;
  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  });

  it("quotes in the key's own environment, Test or Live", async () => {
    for (const environment of ['test', 'live'] as const) {
      const res = await api('POST', '/v1/quotes', { key: tenant.keys[environment], body: quoteRequest(tenant) });
      expect(res.status).toBe(201);
      expect(res.body.data.quoteIntent).toMatchObject({
        environmentId: tenant.environments[environment],
        source: 'api',
        status: 'succeeded',
        bookVersionId: tenant.versionId,
        requestCorrelationId: res.headers.get('x-request-id'),
      });
      expect(res.body.data.quoteReceipt.computation.totalMinor).toBe(15525);
    }
  });

  it('never lets a Test key see a Live publication, nor a Live key a Test one', async () => {
    const liveOnly = await createTenant({ publishTo: ['live'] });
    const testKey = await api('POST', '/v1/quotes', { key: liveOnly.keys.test, body: quoteRequest(liveOnly) });
    expect(testKey.status).toBe(201);
    expect(testKey.body.data.quoteIntent).toMatchObject({ status: 'failed', bookVersionId: null, environmentId: liveOnly.environments.test });
    expect(testKey.body.data.quoteReceipt.failure.code).toBe('no_published_version');

    const testOnly = await createTenant({ publishTo: ['test'] });
    const liveKey = await api('POST', '/v1/quotes', { key: testOnly.keys.live, body: quoteRequest(testOnly) });
    expect(liveKey.body.data.quoteReceipt.failure.code).toBe('no_published_version');
    expect(liveKey.body.data.quoteIntent.environmentId).toBe(testOnly.environments.live);
  });

  it('keeps idempotency keys of Test and Live apart', async () => {
    const idempotencyKey = `env-split-${randomUUID()}`;
    const test = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { idempotencyKey }) });
    const live = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant, { idempotencyKey }) });
    expect(test.status).toBe(201);
    expect(live.status).toBe(201);
    expect(live.headers.get('idempotent-replayed')).toBeNull();
    expect(live.body.data.quoteIntent.id).not.toBe(test.body.data.quoteIntent.id);
    expect(live.body.data.quoteIntent.environmentId).toBe(tenant.environments.live);
  });

  it('prices against a version published after earlier quotes, and still replays those as they were', async () => {
    const own = await createTenant();
    const idempotencyKey = `before-publish-${randomUUID()}`;
    const first = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own, { idempotencyKey }) });
    expect(first.body.data.quoteIntent.bookVersionId).toBe(own.versionId);

    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const v2 = await createBookVersion(testContext(testDb()), { bookId: own.bookId, artifact: cheaper });
    await publishBookVersion(testContext(testDb()), { bookId: own.bookId, versionId: v2.id, environment: 'test' });

    const second = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own) });
    expect(second.body.data.quoteIntent.bookVersionId).toBe(v2.id);
    expect(second.body.data.quoteReceipt.computation.totalMinor).toBeLessThan(first.body.data.quoteReceipt.computation.totalMinor);
    const live = await api('POST', '/v1/quotes', { key: own.keys.live, body: quoteRequest(own) });
    expect(live.body.data.quoteIntent.bookVersionId).toBe(own.versionId);

    const replay = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own, { idempotencyKey }) });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
  });

  it('writes nothing and answers 409 conflict when the scope keeps changing under the quote', async () => {
    const own = await createTenant();
    const fresh: boolean[] = [];
    // A scope that never holds when the insert re-checks it (a business of another project).
    const resolveScope = async (isFresh: boolean) => {
      fresh.push(isFresh);
      return {
        workspaceId: own.workspaceId,
        projectId: own.projectId,
        environmentId: own.environments.test,
        bookId: own.bookId,
        businessId: other.businessId,
        publishedVersionId: own.versionId,
        bookMustBePrimary: false,
      };
    };
    const idempotencyKey = `storm-${randomUUID()}`;
    const attempt = createQuote(
      { ...systemContext(testDb(), 'test'), startedAt: performance.now() },
      {
        resolveScope,
        source: 'api',
        surface: 'api',
        idempotencyScope: 'api',
        inputs: { offeringId: demoExample.offeringId, factors: demoExample.factors },
        idempotencyKey,
        payload: { idempotencyKey },
        whenUnpublished: 'failed_receipt',
      },
    );
    await expect(attempt).rejects.toSatisfy((e) => e instanceof ServiceError && e.code === 'conflict');
    expect(fresh).toEqual([false, true, true]);
    expect(await testDb().quoteIntent.count({ where: { idempotencyKey } })).toBe(0);
  });

  it('stops quoting for a business as soon as its connection ends, replays included', async () => {
    const own = await createTenant();
    const idempotencyKey = `before-${randomUUID()}`;
    expect((await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own, { idempotencyKey }) })).status).toBe(201);
    const replay = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own, { idempotencyKey }) });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await testDb().connection.updateMany({ where: { businessId: own.businessId }, data: { status: 'inactive' } });
    // A new quote, and a replay of the one this process wrote (whose key it remembers as stored).
    for (const body of [quoteRequest(own), quoteRequest(own, { idempotencyKey })]) {
      const after = await api('POST', '/v1/quotes', { key: own.keys.test, body });
      expect(after.status).toBe(404);
      expect(after.body.error.code).toBe('quote_scope_not_found');
    }
    expect(await testDb().quoteIntent.count({ where: { projectId: own.projectId } })).toBe(1);
  });

  it('answers 404 quote_scope_not_found outside the key’s project or for disconnected businesses', async () => {
    const inactive = await createTenant({ connectionStatus: 'inactive' });
    const cases = [
      quoteRequest(tenant, { bookId: other.bookId }),
      quoteRequest(tenant, { businessId: other.businessId }),
      quoteRequest(tenant, { businessId: randomUUID() }),
      quoteRequest(tenant, { bookId: randomUUID() }),
    ];
    for (const body of cases) {
      const res = await api('POST', '/v1/quotes', { key: tenant.keys.test, body });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('quote_scope_not_found');
    }
    const res = await api('POST', '/v1/quotes', { key: inactive.keys.live, body: quoteRequest(inactive) });
    expect(res.body.error.code).toBe('quote_scope_not_found');
  });

  it('refuses a key the moment it is revoked, however recently it was used', async () => {
    const own = await createTenant();
    const key = await createApiKey(testContext(testDb()), { projectId: own.projectId, environment: 'test', name: 'busy key' });
    const idempotencyKey = `busy-${randomUUID()}`;
    // Used many times (every service process has seen it), with one idempotency key among them.
    await api('POST', '/v1/quotes', { key: key.secret, body: quoteRequest(own, { idempotencyKey }) });
    const warm = await Promise.all(Array.from({ length: 8 }, () => api('POST', '/v1/quotes', { key: key.secret, body: quoteRequest(own) })));
    expect(warm.map((r) => r.status)).toEqual(Array(8).fill(201));
    const admin = await createPerson(own, { permissions: ['api_keys:create'] });
    expect((await api('POST', `/v1/api-keys/${key.apiKey.id}/revocation`, { key: admin.token })).status).toBe(200);
    const before = await testDb().quoteIntent.count({ where: { projectId: own.projectId } });

    const attempts = [
      ...Array.from({ length: 4 }, () => quoteRequest(own)),
      quoteRequest(own, { idempotencyKey }), // a replay
      quoteRequest(own, { offeringId: 'no_such_offering' }),
      { businessId: own.businessId }, // an invalid body
    ];
    for (const body of attempts) {
      const res = await api('POST', '/v1/quotes', { key: key.secret, body });
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
    }
    expect(await testDb().quoteIntent.count({ where: { projectId: own.projectId } })).toBe(before);
  });

  it('refuses missing, malformed, unknown and revoked keys with 401 invalid_api_key', async () => {
    const own = await createTenant();
    const revoked = await createApiKey(testContext(testDb()), { projectId: own.projectId, environment: 'test', name: 'to revoke' });
    const admin = await createPerson(own, { permissions: ['api_keys:create'] });
    const revocation = await api('POST', `/v1/api-keys/${revoked.apiKey.id}/revocation`, { key: admin.token });
    expect(revocation.status).toBe(200);
    const graceOver = await createApiKey(testContext(testDb()), { projectId: own.projectId, environment: 'live', name: 'grace over' });
    await testDb().apiKey.update({
      where: { id: graceOver.apiKey.id },
      data: { status: 'rotating', revokedAt: new Date(Date.now() - 1000) },
    });
    const inGrace = await createApiKey(testContext(testDb()), { projectId: own.projectId, environment: 'live', name: 'in grace' });
    await testDb().apiKey.update({
      where: { id: inGrace.apiKey.id },
      data: { status: 'rotating', revokedAt: new Date(Date.now() + 60_000) },
    });

    const headers: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: '' },
      { authorization: own.keys.test },
      { authorization: `Basic ${own.keys.test}` },
      { authorization: `Bearer pk_test_${'a'.repeat(32)}` },
      { authorization: `Bearer sk_test_${'a'.repeat(32)}` },
      // a Live secret presented with a Test prefix
      { authorization: `Bearer sk_test_${own.keys.live.slice('sk_live_'.length)}` },
      { authorization: `Bearer ${revoked.secret}` },
      { authorization: `Bearer ${graceOver.secret}` },
    ];
    for (const h of headers) {
      const res = await api('POST', '/v1/quotes', { headers: h, body: quoteRequest(own) });
      expect(res.status, JSON.stringify(h)).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
      expect(res.text).not.toContain('aaaaaaaa');
    }
    const stillValid = await api('POST', '/v1/quotes', { key: inGrace.secret, body: quoteRequest(own) });
    expect(stillValid.status).toBe(201);
  });

  it('validates the body with 422 invalid_quote_request, unknown fields included', async () => {
    const cases: [unknown, string][] = [
      [{ ...quoteRequest(tenant), bookId: undefined }, 'bookId'],
      [{ ...quoteRequest(tenant), businessId: 42 }, 'businessId'],
      [{ ...quoteRequest(tenant), offeringId: undefined }, 'offeringId'],
      [{ ...quoteRequest(tenant), environment: 'live' }, 'environment'],
      [{ ...quoteRequest(tenant), factors: 'all' }, 'factors'],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/v1/quotes', { key: tenant.keys.test, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_quote_request');
      expect(res.body.error.details.fields[field]).toBeDefined();
    }
  });

  it('authenticates before validating, so a bad key never learns about the body', async () => {
    const res = await api('POST', '/v1/quotes', { key: 'sk_test_nope', body: { nonsense: true } });
    expect(res.status).toBe(401);
  });
});
