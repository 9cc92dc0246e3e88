import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createApiKey } from '../../lib/keys/create-api-key';
import { quoteRequest, createPerson, createTenant, testDb, type Tenant, testContext } from '../../lib/testing/factories';
import { loggedRequest as logRow } from '../support/request-log';
import { serviceOrigin } from '../support/service-fetch';

describe('request log', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('records an API-key request with its tenancy, status and latency', async () => {
    const res = await api('POST', '/v1/quotes', {
      key: tenant.keys.test,
      body: quoteRequest(tenant),
    });
    const row = await logRow(res.headers.get('x-request-id')!);
    expect(row).toMatchObject({
      method: 'POST',
      path: '/v1/quotes',
      status: 201,
      errorCode: null,
      principal: 'api_key',
      apiKeyId: tenant.keyIds.test,
      workspaceId: tenant.workspaceId,
      projectId: tenant.projectId,
      environmentId: tenant.environments.test,
      businessId: tenant.businessId,
    });
    expect(row.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('records anonymous and failed requests with their error code', async () => {
    const ok = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    expect(await logRow(ok.headers.get('x-request-id')!)).toMatchObject({
      principal: 'anonymous',
      status: 201,
      businessId: tenant.businessId,
      environmentId: tenant.environments.live,
    });
    const bad = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId } });
    expect(await logRow(bad.headers.get('x-request-id')!)).toMatchObject({ status: 422, errorCode: 'invalid_quote_request' });
  });

  it('files session requests under the workspace the request worked in', async () => {
    const admin = await createPerson(tenant, { permissions: 'all' });
    const created = await api('POST', '/v1/api-keys', { key: admin.token, body: { name: 'logged', projectId: tenant.projectId, environment: 'test' } });
    expect(await logRow(created.headers.get('x-request-id')!)).toMatchObject({
      principal: 'session',
      userId: admin.userId,
      workspaceId: tenant.workspaceId,
      status: 201,
    });
    const draft = await api('GET', `/v1/books/${tenant.bookId}`, { key: admin.token });
    expect(await logRow(draft.headers.get('x-request-id')!)).toMatchObject({ workspaceId: tenant.workspaceId, projectId: tenant.projectId });
    // A business route: filed under the business and its workspace, as the access check found them.
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const members = await api('GET', `/v1/businesses/${tenant.businessId}/members`, { key: owner.token });
    expect(members.status).toBe(200);
    expect(await logRow(members.headers.get('x-request-id')!)).toMatchObject({ businessId: tenant.businessId, workspaceId: tenant.workspaceId });
    // No such business: nothing to file it under.
    const missing = await api('GET', `/v1/businesses/${randomUUID()}/members`, { key: owner.token });
    expect(await logRow(missing.headers.get('x-request-id')!)).toMatchObject({ status: 404, businessId: null, workspaceId: null });
  });

  it('files a request with a revoked key under that key, so its workspace can see what still uses it', async () => {
    const { apiKey, secret } = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'live', name: 'retired key' });
    await testDb().apiKey.update({ where: { id: apiKey.id }, data: { status: 'revoked', revokedAt: new Date() } });
    const refused = await api('POST', '/v1/quotes', { key: secret, body: quoteRequest(tenant) });
    expect(refused.status).toBe(401);
    expect(await logRow(refused.headers.get('x-request-id')!)).toMatchObject({
      status: 401,
      errorCode: 'invalid_api_key',
      principal: 'api_key',
      apiKeyId: apiKey.id,
      workspaceId: tenant.workspaceId,
      projectId: tenant.projectId,
      environmentId: tenant.environments.live,
    });

    const unknown = await api('POST', '/v1/quotes', { key: `sk_live_${'x'.repeat(30)}`, body: {} });
    expect(await logRow(unknown.headers.get('x-request-id')!)).toMatchObject({ status: 401, principal: 'anonymous', apiKeyId: null, workspaceId: null });
  });

  it('never keeps a secret: not in the request log, not in responses, not in the server log', async () => {
    const wrongSecret = `sk_live_${'Zq9'.repeat(10)}`;
    const responses = [
      await api('POST', '/v1/quotes', { key: wrongSecret, body: {} }),
      await api('POST', '/v1/quotes', { key: tenant.keys.live, body: { businessId: 'x', secret: tenant.keys.live } }),
      await api('GET', `/v1/status?key=${tenant.keys.test}`, { key: tenant.keys.test }),
    ];
    for (const res of responses) {
      expect(res.text).not.toContain(wrongSecret);
      expect(res.text).not.toContain(tenant.keys.live);
      const row = await logRow(res.headers.get('x-request-id')!);
      const stored = JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v));
      for (const secret of [wrongSecret, tenant.keys.live, tenant.keys.test]) expect(stored).not.toContain(secret);
    }
    const serverLog = readFileSync(inject('serverLogFile'), 'utf8');
    for (const secret of [wrongSecret, tenant.keys.live, tenant.keys.test]) expect(serverLog).not.toContain(secret);
  });

});

describe('request log: who called, what they sent, what they got', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });
  const detail = async (token: string, requestId: string) => {
    await logRow(requestId);
    return api('GET', `/v1/request-logs/${requestId}`, { key: token });
  };

  it('keeps a write\'s request and answer with every secret redacted, and names the caller', async () => {
    const admin = await createPerson(tenant, { permissions: 'all' });
    const created = await api('POST', '/v1/api-keys', {
      key: admin.token,
      headers: { 'user-agent': 'integration-test/1.0' },
      body: { name: 'logged key', projectId: tenant.projectId, environment: 'test' },
    });
    expect(created.status).toBe(201);
    const secret = created.body.data.secret as string;
    const res = await detail(admin.token, created.headers.get('x-request-id')!);
    expect(res.status).toBe(200);
    const log = res.body.data.log;
    expect(log).toMatchObject({ caller: 'member', portal: false, memberEmail: admin.email, userAgent: 'integration-test/1.0', status: 201 });
    expect(JSON.parse(log.requestBody)).toEqual({ name: 'logged key', projectId: tenant.projectId, environment: 'test' });
    const answer = JSON.parse(log.responseBody);
    expect(answer.data.apiKey.name).toBe('logged key');
    expect(answer.data.secret).toBe('[redacted]');
    expect(log.responseBody).not.toContain(secret);
    expect(Date.parse(log.bodiesKeptUntil) - Date.parse(log.createdAt)).toBe(30 * 86_400_000);
  });

  it('keeps no copy of a successful quote (its trace has it), but keeps a failed one', async () => {
    const reader = await createPerson(tenant, { permissions: ['logs:read'] });
    const ok = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    const okLog = (await detail(reader.token, ok.headers.get('x-request-id')!)).body.data.log;
    expect(okLog).toMatchObject({ caller: 'api_key', apiKeyName: 'test key', requestBody: null, responseBody: null, quoteIntentId: ok.body.data.quoteIntent.id });
    const bad = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { ...quoteRequest(tenant), factors: { home_size: 7 } } });
    expect(bad.status).toBe(422);
    const badLog = (await detail(reader.token, bad.headers.get('x-request-id')!)).body.data.log;
    expect(JSON.parse(badLog.requestBody).factors).toEqual({ home_size: 7 });
    expect(JSON.parse(badLog.responseBody).error.code).toBe('invalid_quote_request');
    expect(badLog.requestBody).not.toContain(tenant.keys.test);
  });

  it('files an anonymous request refused before it named a valid business under the business it named', async () => {
    const reader = await createPerson(tenant, { permissions: ['logs:read'] });
    const bad = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, offeringId: 7 } });
    expect(bad.status).toBe(422);
    const log = (await detail(reader.token, bad.headers.get('x-request-id')!)).body.data.log;
    expect(log).toMatchObject({ caller: 'anonymous', businessId: tenant.businessId, workspaceId: tenant.workspaceId, environment: 'live' });
    expect(JSON.parse(log.requestBody)).toEqual({ businessId: tenant.businessId, offeringId: 7 });
  });

  it('searches by method, caller and the portal\'s own traffic, and keeps bodies beside the row', async () => {
    const admin = await createPerson(tenant, { permissions: 'all' });
    const viaPortal = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      headers: { cookie: `next-auth.session-token=${admin.token}`, origin: serviceOrigin() },
      body: { displayName: 'Portal write', logoUrl: null, primaryColor: 'blue', accentColor: '#000000' },
    });
    expect(viaPortal.status).toBe(400);
    const portalId = viaPortal.headers.get('x-request-id')!;
    await logRow(portalId);
    const search = async (query: string) =>
      (await api('GET', `/v1/request-logs?businessId=${tenant.businessId}&${query}`, { key: admin.token })).body.data.logs as { requestId: string; method: string; caller: string; portal: boolean }[];
    expect((await search('portal=only')).map((l) => l.requestId)).toContain(portalId);
    expect((await search('portal=exclude')).map((l) => l.requestId)).not.toContain(portalId);
    expect((await search('method=PUT')).every((l) => l.method === 'PUT')).toBe(true);
    const members = await search('caller=member');
    expect(members.length).toBeGreaterThan(0);
    expect(members.every((l) => l.caller === 'member')).toBe(true);

    // Bodies live in their own day-partitioned table (dropped after 30 days: test/db/request-log-partitions).
    const row = await testDb().requestLog.findFirstOrThrow({ where: { requestId: portalId } });
    const bodies = await testDb().requestLogBody.findUniqueOrThrow({ where: { requestId_createdAt: { requestId: portalId, createdAt: row.createdAt } } });
    expect(JSON.parse(bodies.responseBody!).error.requestId).toBe(portalId);
  });
});
