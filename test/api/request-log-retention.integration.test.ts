import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { partitionKeepDays } from '../../lib/requestlog/retention';
import { insertRequestLogs, type RequestLogEntry } from '../../lib/requestlog/store';

const DAY = 86_400_000;

/**
 * Issue 31: how long a workspace's request log is kept is a setting of the workspace. A shorter
 * one hides the older requests from every read at once (their days are dropped later, whole);
 * a longer one keeps the days for everyone until it is past.
 */
describe("a workspace's request log retention", () => {
  let tenant: Tenant;
  let other: Tenant;
  let admin: Person;
  let reader: Person;
  let otherAdmin: Person;
  const ids: Record<string, string> = {};

  /** A request of the tenant's Test key in its Test environment, `daysAgo` days ago, with a UUIDv7 id of that instant. */
  function request(t: Tenant, daysAgo: number): RequestLogEntry {
    const createdAt = new Date(Date.now() - daysAgo * DAY);
    return {
      requestId: uuidv7({ msecs: createdAt.getTime() }), method: 'POST', path: '/v1/quotes', status: 201, errorCode: null, principal: 'api_key', caller: 'api_key',
      portal: false, ip: null, userAgent: null, requestBody: null, responseBody: null, apiKeyId: t.keyIds.test, userId: null, workspaceId: t.workspaceId,
      projectId: t.projectId, environmentId: t.environments.test, businessId: t.businessId, latencyMs: 3, testFault: null, createdAt,
    };
  }

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    [admin, reader, otherAdmin] = await Promise.all([
      createPerson(tenant, { permissions: 'all' }),
      createPerson(tenant, { permissions: ['logs:read'] }),
      createPerson(other, { permissions: 'all' }),
    ]);
    const rows = { recent: request(tenant, 2), tenDays: request(tenant, 10), fortyDays: request(tenant, 40), otherTenDays: request(other, 10) };
    for (const [name, row] of Object.entries(rows)) ids[name] = row.requestId;
    await insertRequestLogs(testDb(), Object.values(rows));
  });

  const searched = async (person: Person) => {
    const res = await api('GET', '/v1/request-logs?limit=100&path=/v1/quotes', { key: person.token });
    expect(res.status).toBe(200);
    return new Set(res.body.data.logs.map((l: { requestId: string }) => l.requestId));
  };
  const lookedUp = async (person: Person, requestId: string) => (await api('GET', `/v1/request-logs/${requestId}`, { key: person.token })).status;
  const listedByAccount = async () => {
    const res = await api('GET', `/v1/accounts/${tenant.projectId}/request-logs?limit=100`, { key: tenant.keys.test });
    expect(res.status).toBe(200);
    return new Set(res.body.data.map((r: { request_id: string }) => r.request_id));
  };
  const setRetention = (person: Person, workspaceId: string, requestLogRetentionDays: unknown) =>
    api('PATCH', `/v1/workspaces/${workspaceId}`, { key: person.token, body: { requestLogRetentionDays } });

  it("follows the service's 90 days until the workspace sets its own, which only an admin may", async () => {
    expect([...(await searched(admin))].filter((id) => Object.values(ids).includes(id as string)).sort()).toEqual([ids.recent, ids.tenDays, ids.fortyDays].sort());
    const listed = await api('GET', '/v1/workspaces', { key: admin.token });
    expect(listed.body.data.workspaces.find((w: { id: string }) => w.id === tenant.workspaceId).requestLogRetention).toEqual({ days: 90, setByWorkspace: false });

    const refused = await setRetention(reader, tenant.workspaceId, 7);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await setRetention(otherAdmin, tenant.workspaceId, 7)).status).toBe(404);
    for (const bad of [0, 3651, 7.5, '7']) expect((await setRetention(admin, tenant.workspaceId, bad)).body.error.code).toBe('invalid_request');
  });

  it('a shorter retention hides older requests from searches, lookups, account listings at once; other workspaces keep theirs', async () => {
    const set = await setRetention(admin, tenant.workspaceId, 7);
    expect(set.status).toBe(200);
    expect(set.body.data.workspace).toEqual({ id: tenant.workspaceId, requestLogRetention: { days: 7, setByWorkspace: true } });

    const shown = await searched(admin);
    expect(shown.has(ids.recent)).toBe(true);
    expect(shown.has(ids.tenDays)).toBe(false);
    expect(shown.has(ids.fortyDays)).toBe(false);
    expect(await lookedUp(admin, ids.recent)).toBe(200);
    expect(await lookedUp(admin, ids.tenDays)).toBe(404);
    const byAccount = await listedByAccount();
    expect(byAccount.has(ids.recent)).toBe(true);
    expect(byAccount.has(ids.tenDays)).toBe(false);
    // Another workspace follows its own (the default): its ten-day-old request is there.
    expect((await searched(otherAdmin)).has(ids.otherTenDays)).toBe(true);
    expect(await lookedUp(otherAdmin, ids.otherTenDays)).toBe(200);

    // Back to the default: the rows were never deleted, so they show again.
    expect((await setRetention(admin, tenant.workspaceId, null)).body.data.workspace.requestLogRetention).toEqual({ days: 90, setByWorkspace: false });
    expect(await lookedUp(admin, ids.tenDays)).toBe(200);
    expect((await listedByAccount()).has(ids.fortyDays)).toBe(true);
  });

  it("a quote's trace shows the request that created it only while the retention shows that request", async () => {
    const created = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    expect(created.status).toBe(201);
    const quoteId = created.body.data.quoteIntent.id;
    // The quote and its request, ten days ago.
    const row = request(tenant, 10);
    const { requestCorrelationId } = await testDb().quoteIntent.update({ where: { id: quoteId }, data: { createdAt: row.createdAt }, select: { requestCorrelationId: true } });
    await insertRequestLogs(testDb(), [{ ...row, requestId: requestCorrelationId }]);
    const tracedRequest = async () => {
      const res = await api('GET', `/v1/quote-intents/${quoteId}/trace`, { key: reader.token });
      expect(res.status).toBe(200);
      return res.body.data.request?.requestId ?? null;
    };

    expect(await tracedRequest()).toBe(requestCorrelationId);
    expect((await setRetention(admin, tenant.workspaceId, 7)).status).toBe(200);
    expect(await tracedRequest()).toBeNull();
    await setRetention(admin, tenant.workspaceId, null);
    expect(await tracedRequest()).toBe(requestCorrelationId);
  });

  it('a longer retention keeps every day until it is past: the partitions are kept for the longest', async () => {
    expect(await partitionKeepDays(testDb(), 90)).toBeLessThan(400);
    expect((await setRetention(admin, tenant.workspaceId, 400)).status).toBe(200);
    expect(await partitionKeepDays(testDb(), 90)).toBeGreaterThanOrEqual(400);
    await setRetention(admin, tenant.workspaceId, null);
  });
});
