import { beforeAll, describe, expect, it } from 'vitest';
import { sweepRotatedKeys } from '../../lib/keys/sweep-rotated-keys';
import { api } from '../support/api-client';
import { quoteRequest, createPerson, createTenant, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';

describe('API key lifecycle (spec 2.5, 3.2)', () => {
  let tenant: Tenant;
  let admin: Person;
  const quoteWith = (key: string) =>
    api('POST', '/v1/quotes', { key, body: quoteRequest(tenant) });
  const create = (environment: 'test' | 'live', name = 'Lifecycle key') =>
    api('POST', '/v1/api-keys', { key: admin.token, body: { name, projectId: tenant.projectId, environment } });

  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: ['api_keys:create'] });
  });

  it('creates Test and Live keys whose prefix follows the environment; the secret is shown once', async () => {
    for (const environment of ['test', 'live'] as const) {
      const res = await create(environment);
      expect(res.status).toBe(201);
      const { apiKey, secret } = res.body.data;
      expect(secret.startsWith(`sk_${environment}_`)).toBe(true);
      expect(apiKey).toMatchObject({ environment, status: 'active', revokedAt: null, last4: secret.slice(-4) });
      expect(secret.startsWith(apiKey.displayPrefix)).toBe(true);
      expect((await quoteWith(secret)).body.data.quoteIntent.environmentId).toBe(tenant.environments[environment]);
      const stored = await testDb().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
      expect(JSON.stringify(stored)).not.toContain(secret);
      const list = await api('GET', `/v1/api-keys?projectId=${tenant.projectId}`, { key: admin.token });
      expect(list.text).not.toContain(secret);
      expect(list.body.data.apiKeys.map((k: { id: string }) => k.id)).toContain(apiKey.id);
    }
  });

  it('rotates with a grace window: both keys work, then the old one stops at revokedAt, before any sweep', async () => {
    const { apiKey, secret } = (await create('live', 'Rotating')).body.data;
    const res = await api('POST', `/v1/api-keys/${apiKey.id}/rotation`, { key: admin.token, body: { graceMinutes: 60 } });
    expect(res.status).toBe(200);
    const { apiKey: old, successor, secret: successorSecret } = res.body.data;
    expect(old.status).toBe('rotating');
    expect(new Date(old.revokedAt).getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(successor).toMatchObject({ name: 'Rotating', environment: 'live', status: 'active', scopes: apiKey.scopes });
    expect(successorSecret.startsWith('sk_live_')).toBe(true);
    expect((await quoteWith(secret)).status).toBe(201);
    expect((await quoteWith(successorSecret)).status).toBe(201);

    // move the clock past the grace window
    await testDb().apiKey.update({ where: { id: apiKey.id }, data: { revokedAt: new Date(Date.now() - 1000) } });
    const refused = await quoteWith(secret);
    expect(refused.status).toBe(401);
    // The spec's code on this surface; the words say why, and what to do.
    expect(refused.body.error.code).toBe('invalid_api_key');
    expect(refused.body.error.message).toMatch(/has been revoked.*current keys/);
    expect((await quoteWith(successorSecret)).status).toBe(201);
    const listed = await api('GET', `/v1/api-keys?projectId=${tenant.projectId}`, { key: admin.token });
    expect(listed.body.data.apiKeys.find((k: { id: string }) => k.id === apiKey.id).status).toBe('revoked');

    expect(await sweepRotatedKeys(testContext(testDb()))).toBeGreaterThanOrEqual(1);
    expect((await testDb().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).status).toBe('revoked');
    expect(await testDb().outboxEvent.count({ where: { type: 'api_key.revoked', data: { path: ['apiKey', 'id'], equals: apiKey.id } } })).toBe(1);
  });

  it('rotates with graceMinutes 0: the old key is revoked at once; 24 hours is the default', async () => {
    const immediate = (await create('test')).body.data;
    const res = await api('POST', `/v1/api-keys/${immediate.apiKey.id}/rotation`, { key: admin.token, body: { graceMinutes: 0 } });
    expect(res.body.data.apiKey.status).toBe('revoked');
    expect((await quoteWith(immediate.secret)).status).toBe(401);
    expect((await quoteWith(res.body.data.secret)).status).toBe(201);

    const byDefault = (await create('test')).body.data;
    const rotated = await api('POST', `/v1/api-keys/${byDefault.apiKey.id}/rotation`, { key: admin.token });
    const graceMs = new Date(rotated.body.data.apiKey.revokedAt).getTime() - Date.now();
    expect(graceMs).toBeGreaterThan(23.9 * 3600_000);
    expect(graceMs).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('refuses a second rotation of a rotating key, and graces beyond 168 hours', async () => {
    const { apiKey } = (await create('test')).body.data;
    expect((await api('POST', `/v1/api-keys/${apiKey.id}/rotation`, { key: admin.token, body: { graceMinutes: 10081 } })).status).toBe(400);
    await api('POST', `/v1/api-keys/${apiKey.id}/rotation`, { key: admin.token, body: { graceMinutes: 5 } });
    const again = await api('POST', `/v1/api-keys/${apiKey.id}/rotation`, { key: admin.token, body: { graceMinutes: 5 } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
  });

  it('revokes at once and idempotently, keeping the first revocation time', async () => {
    const { apiKey, secret } = (await create('live')).body.data;
    const first = await api('POST', `/v1/api-keys/${apiKey.id}/revocation`, { key: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.data.apiKey.status).toBe('revoked');
    expect((await quoteWith(secret)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 20));
    const second = await api('POST', `/v1/api-keys/${apiKey.id}/revocation`, { key: admin.token });
    expect(second.status).toBe(200);
    expect(second.body.data.apiKey.revokedAt).toBe(first.body.data.apiKey.revokedAt);
    // a revoked key cannot be rotated back to life
    expect((await api('POST', `/v1/api-keys/${apiKey.id}/rotation`, { key: admin.token })).status).toBe(409);
  });

  it('needs a session with api_keys:create, and hides other workspaces’ keys', async () => {
    const viewer = await createPerson(tenant, { permissions: ['logs:read'] });
    const outsider = await createPerson(await createTenant(), { permissions: 'all' });
    const { apiKey } = (await create('test')).body.data;
    const body = { name: 'x', projectId: tenant.projectId, environment: 'test' };

    expect((await api('POST', '/v1/api-keys', { body })).status).toBe(401);
    expect((await api('POST', '/v1/api-keys', { body, key: tenant.keys.test })).body.error.code).toBe('unauthorized');
    expect((await api('POST', '/v1/api-keys', { body, key: viewer.token })).status).toBe(403);
    expect((await api('POST', '/v1/api-keys', { body, key: outsider.token })).status).toBe(404);
    expect((await api('POST', `/v1/api-keys/${apiKey.id}/revocation`, { key: viewer.token })).status).toBe(403);
    expect((await api('POST', `/v1/api-keys/${apiKey.id}/revocation`, { key: outsider.token })).status).toBe(404);
    const list = await api('GET', `/v1/api-keys?projectId=${tenant.projectId}`, { key: outsider.token });
    expect(list.body.data.apiKeys).toEqual([]);
  });
});
