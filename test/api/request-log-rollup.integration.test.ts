import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { countApiCalls } from '../../lib/overview/store';
import { api } from '../support/api-client';
import { flushRequestLog } from '../support/request-log';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Issue 31: the Overview counts API calls from an hourly rollup that the request-log writer keeps
 * in the statement that writes the rows: after a mixed workload it equals the rows, key by key.
 */
describe('the request log rolled up by the hour', () => {
  let tenant: Tenant;
  let owner: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    owner = await createPerson(tenant, { businessRole: 'owner', permissions: 'all' });
  });

  it('equals the raw rows after quotes, failures, anonymous and member calls, and the Overview reads it', async () => {
    const since = new Date(Date.now() - 7 * 86_400_000);
    const before = await countApiCalls(testDb(), { id: tenant.businessId, workspaceId: tenant.workspaceId }, since);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) })),
      ...Array.from({ length: 3 }, () => api('POST', '/v1/quotes', { key: tenant.keys.live, body: { ...quoteRequest(tenant), factors: 'not an object' } })),
      ...Array.from({ length: 4 }, () => api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } })),
      api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant), headers: { 'test-fault': 'server_error', 'idempotency-key': randomUUID() } }),
      ...Array.from({ length: 2 }, () => api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: owner.token })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(6).fill(201), ...Array(4).fill(201), 200, 200, ...Array(3).fill(422), 500].sort());
    const requestIds = answers.map((a) => a.headers.get('x-request-id')!);
    await flushRequestLog();
    expect(await testDb().requestLog.count({ where: { requestId: { in: requestIds } } })).toBe(requestIds.length);

    const raw = await testDb().$queryRaw<{ key: string; n: bigint }[]>`
      SELECT concat_ws('/', COALESCE(business_id::text, '-'), date_trunc('hour', created_at, 'UTC')::text, COALESCE(api_key_id::text, '-'), portal, status / 100) AS key, count(*) AS n
      FROM request_logs WHERE workspace_id = ${tenant.workspaceId}::uuid GROUP BY 1`;
    const rolled = await testDb().$queryRaw<{ key: string; n: bigint }[]>`
      SELECT concat_ws('/', CASE WHEN business_id = '00000000-0000-0000-0000-000000000000' THEN '-' ELSE business_id::text END, hour::text,
        CASE WHEN api_key_id = '00000000-0000-0000-0000-000000000000' THEN '-' ELSE api_key_id::text END, portal, status_class) AS key, requests AS n
      FROM request_log_hourly WHERE workspace_id = ${tenant.workspaceId}::uuid`;
    const asMap = (rows: { key: string; n: bigint }[]) => Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
    expect(asMap(rolled)).toEqual(asMap(raw));
    expect(Object.keys(asMap(raw)).length).toBeGreaterThanOrEqual(4); // keys, anonymous, a member, 2xx/4xx/5xx

    // The Overview's figure: this workload's calls filed under the business (the portal's own left out).
    const after = await countApiCalls(testDb(), { id: tenant.businessId, workspaceId: tenant.workspaceId }, since);
    const filed = await testDb().requestLog.findMany({ where: { requestId: { in: requestIds }, businessId: tenant.businessId, portal: false }, select: { status: true } });
    expect(after.total - before.total).toBe(filed.length);
    expect(after.failed - before.failed).toBe(filed.filter((r) => r.status >= 400).length);
    expect(filed.length).toBeGreaterThan(10);
  });
});
