import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiResponse } from '../support/api-client';
import { createPerson, createTenant, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { SEARCH_WINDOW_DAYS } from '../../lib/requestlog/search-request-logs';
import { insertRequestLogs, type RequestLogEntry } from '../../lib/requestlog/store';

const DAY = 86_400_000;

/**
 * Issue 43: a search without a lower bound reads the log in widening windows, newest first (a day,
 * a week, a month…, then the rest), so that PostgreSQL plans over the days a page needs rather
 * than every day partition. What a person reads must not change: every request once, newest
 * first, page after page, whichever windows its rows fall in.
 */
describe('a search without a time window, read window by window', () => {
  let tenant: Tenant;
  let admin: Person;
  // One request in each window and two beyond the last (the rest), newest first.
  const ages = [0.01, 0.5, 3, 20, 60, 200, 380, 390];
  // Kept long enough to show them all, and under the 400 days request-log-retention's test
  // takes as nobody's (workspaces share the database; partitions are kept for the longest).
  const KEPT_DAYS = 399;
  const ids: string[] = [];

  beforeAll(async () => {
    expect(SEARCH_WINDOW_DAYS.at(-1)).toBeLessThan(380);
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: 'all' });
    const rows = ages.map((daysAgo) => entry(new Date(Date.now() - daysAgo * DAY), '/v1/books'));
    ids.push(...rows.map((r) => r.requestId));
    await insertRequestLogs(testDb(), rows);
    expect((await keep(KEPT_DAYS)).status).toBe(200);
  });
  afterAll(async () => {
    await keep(null);
  });

  const keep = (requestLogRetentionDays: number | null) =>
    api('PATCH', `/v1/workspaces/${tenant.workspaceId}`, { key: admin.token, body: { requestLogRetentionDays } });

  /** A request of the tenant's Test key, stamped `createdAt`. */
  const entry = (createdAt: Date, path: string, requestId = uuidv7({ msecs: createdAt.getTime() })): RequestLogEntry => ({
    requestId, method: 'GET', path, status: 200, errorCode: null, principal: 'api_key', caller: 'api_key', portal: false, ip: null, userAgent: null,
    requestBody: null, responseBody: null, apiKeyId: tenant.keyIds.test, userId: null, workspaceId: tenant.workspaceId, projectId: tenant.projectId,
    environmentId: tenant.environments.test, businessId: tenant.businessId, latencyMs: 3, testFault: null, createdAt,
  });

  /** Every page of a search, followed by its cursor: the request ids in the order shown. */
  async function pages(query: string, limit: number): Promise<{ shown: string[]; pageCount: number }> {
    const shown: string[] = [];
    let cursor: string | null = null;
    let pageCount = 0;
    do {
      const res: ApiResponse = await api('GET', `/v1/request-logs?path=/v1/books&apiKeyId=${tenant.keyIds.test}&limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: admin.token });
      expect(res.status).toBe(200);
      shown.push(...res.body.data.logs.map((l: { requestId: string }) => l.requestId));
      cursor = res.body.data.nextCursor;
      pageCount++;
    } while (cursor && pageCount < 20);
    return { shown, pageCount };
  }

  it('shows every request once, newest first, in one page or many', async () => {
    expect((await pages('', 100)).shown).toEqual(ids);
    for (const limit of [1, 2, 3]) {
      const { shown, pageCount } = await pages('', limit);
      expect(shown, `pages of ${limit}`).toEqual(ids);
      expect(pageCount, 'a full last page says there is no next').toBe(Math.ceil(ids.length / limit));
    }
  });

  it('shows a request stamped more than an hour ahead (a clock gone wrong) only to a search from a time', async () => {
    const createdAt = new Date(Date.now() + 2 * 3_600_000);
    const ahead = entry(createdAt, '/v1/ahead');
    await insertRequestLogs(testDb(), [ahead]);
    const listed = async (query: string) =>
      (await api('GET', `/v1/request-logs?path=/v1/ahead${query}`, { key: admin.token })).body.data.logs.map((l: { requestId: string }) => l.requestId);
    expect(await listed('')).toEqual([]);
    expect(await listed(`&from=${encodeURIComponent(new Date().toISOString())}`)).toEqual([ahead.requestId]);
    expect(await listed(`&requestId=${ahead.requestId}`)).toEqual([ahead.requestId]);
  });

  it('counts its windows back from the end the person asked for', async () => {
    const to = new Date(Date.now() - 10 * DAY).toISOString();
    expect((await pages(`&to=${encodeURIComponent(to)}`, 2)).shown).toEqual(ids.slice(3));
    expect((await pages(`&to=${encodeURIComponent(to)}`, 100)).shown).toEqual(ids.slice(3));
  });

  it('finds a request by an id that carries no time (a v4 id, from before UUIDv7), however old', async () => {
    const createdAt = new Date(Date.now() - 200 * DAY);
    const requestId = crypto.randomUUID();
    await insertRequestLogs(testDb(), [entry(createdAt, '/v1/older', requestId)]);
    const res = await api('GET', `/v1/request-logs?requestId=${requestId}`, { key: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.logs.map((l: { requestId: string }) => l.requestId)).toEqual([requestId]);
  });

  it('stops at what the retention shows', async () => {
    expect((await keep(30)).status).toBe(200);
    expect((await pages('', 2)).shown).toEqual(ids.slice(0, 4));
    expect((await keep(KEPT_DAYS)).status).toBe(200);
  });
});
