import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { quoteRequest, createPerson, createTenant, requestLogEntry, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { flushRequestLog } from '../support/request-log';
import { insertRequestLogs } from '../../lib/requestlog/store';

/** The search for `requestId`, once the request log's batch holding it is written (it must find it). */
async function searchUntilFound(person: Person, requestId: string) {
  await flushRequestLog();
  const res = await api('GET', `/v1/request-logs?requestId=${requestId}`, { key: person.token });
  expect(res.body.data.logs.map((l: { requestId: string }) => l.requestId)).toContain(requestId);
  return res;
}

describe('request-log search and quote traces', () => {
  let tenant: Tenant;
  let reader: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    reader = await createPerson(tenant, { permissions: ['logs:read'] });
  });

  it('finds a request by id, with the quote it created, and traces that quote', async () => {
    const made = await api('POST', '/v1/quotes', {
      key: tenant.keys.live,
      body: quoteRequest(tenant),
    });
    const requestId = made.headers.get('x-request-id')!;
    const found = await searchUntilFound(reader, requestId);
    const [log] = found.body.data.logs;
    expect(log).toMatchObject({
      requestId,
      method: 'POST',
      path: '/v1/quotes',
      status: 201,
      environment: 'live',
      principal: 'api_key',
      apiKeyId: tenant.keyIds.live,
      quoteIntentId: made.body.data.quoteIntent.id,
    });

    for (const id of [made.body.data.quoteIntent.id, requestId]) {
      const trace = await api('GET', `/v1/quote-intents/${id}/trace`, { key: reader.token });
      expect(trace.status).toBe(200);
      expect(trace.body.data).toMatchObject({
        quoteIntent: made.body.data.quoteIntent,
        quoteReceipt: made.body.data.quoteReceipt,
        environment: 'live',
        book: { id: tenant.bookId },
        bookVersion: { id: tenant.versionId, number: 1 },
        request: { requestId, status: 201 },
      });
      expect(trace.body.data.events.map((e: { type: string }) => e.type)).toEqual(['quote_intent.succeeded']);
    }
  });

  it('filters by status class, environment and path, and pages with a cursor', async () => {
    for (let i = 0; i < 3; i++) {
      await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { businessId: tenant.businessId, bookId: tenant.bookId, offeringId: 'x'.repeat(81) } });
    }
    const last = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { nonsense: true } });
    await searchUntilFound(reader, last.headers.get('x-request-id')!);
    const failures = await api('GET', `/v1/request-logs?statusClass=4xx&environment=test&path=/v1/quotes`, { key: reader.token });
    expect(failures.body.data.logs.length).toBeGreaterThanOrEqual(4);
    for (const log of failures.body.data.logs) {
      expect(log.status).toBeGreaterThanOrEqual(400);
      expect(log.environment).toBe('test');
    }
    const window = (from: number, to: number) =>
      `/v1/request-logs?projectId=${tenant.projectId}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    // One reading of the clock for the window and its check: the search may take seconds under load.
    const now = Date.now();
    const recent = await api('GET', window(now - 60_000, now + 1000), { key: reader.token });
    expect(recent.body.data.logs.map((l: { requestId: string }) => l.requestId)).toContain(last.headers.get('x-request-id'));
    for (const log of recent.body.data.logs) expect(Date.parse(log.createdAt)).toBeGreaterThanOrEqual(now - 61_000);
    expect((await api('GET', window(Date.now() + 60_000, Date.now() + 120_000), { key: reader.token })).body.data.logs).toEqual([]);
    expect((await api('GET', window(Date.now() - 3_600_000, Date.now() - 3_000_000), { key: reader.token })).body.data.logs).toEqual([]);
    const page1 = await api('GET', `/v1/request-logs?projectId=${tenant.projectId}&limit=2`, { key: reader.token });
    expect(page1.body.data.logs).toHaveLength(2);
    const page2 = await api('GET', `/v1/request-logs?projectId=${tenant.projectId}&limit=2&cursor=${page1.body.data.nextCursor}`, {
      key: reader.token,
    });
    const ids1 = page1.body.data.logs.map((l: { requestId: string }) => l.requestId);
    for (const log of page2.body.data.logs) expect(ids1).not.toContain(log.requestId);
    expect(new Date(page2.body.data.logs[0].createdAt) <= new Date(page1.body.data.logs[1].createdAt)).toBe(true);
  });

  it('lists requests by their time, not by the order their batches were written, and pages through ties', async () => {
    // Two service processes each write their own batches: the newer request's row can land first.
    const own = await createTenant();
    const ownReader = await createPerson(own, { permissions: ['logs:read'] });
    const at = (ms: number) => new Date(Date.parse('2026-11-01T10:00:00.000Z') + ms);
    const row = (name: string, createdAt: Date) => requestLogEntry(own, { requestId: `${name}-${crypto.randomUUID()}`, createdAt });
    const [first, second, third, fourth, fifth] = [row('a', at(0)), row('b', at(10)), row('c', at(20)), row('d', at(20)), row('e', at(30))];
    await insertRequestLogs(testDb(), [fifth, third]);
    await insertRequestLogs(testDb(), [second, fourth]);
    await insertRequestLogs(testDb(), [first]);
    // Newest first by time; c and d share a millisecond, and the later-written d comes first.
    const expected = [fifth, fourth, third, second, first].map((r) => r.requestId);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/v1/request-logs?projectId=${own.projectId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { logs: { requestId: string }[]; nextCursor: string | null } = (await api('GET', query, { key: ownReader.token })).body.data;
      seen.push(...page.logs.map((l: { requestId: string }) => l.requestId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);

    const window = `from=${at(10).toISOString()}&to=${at(20).toISOString()}`;
    const inWindow = await api('GET', `/v1/request-logs?projectId=${own.projectId}&${window}`, { key: ownReader.token });
    expect(inWindow.body.data.logs.map((l: { requestId: string }) => l.requestId)).toEqual([fourth, third, second].map((r) => r.requestId));

    const account: string[] = [];
    let next: string | null = null;
    do {
      const query: string = `/v1/accounts/${own.projectId}/request-logs?limit=3${next ? `&cursor=${encodeURIComponent(next)}` : ''}`;
      const page: { data: { request_id: string }[]; next_cursor: string | null } = (await api('GET', query, { key: own.keys.live })).body;
      account.push(...page.data.map((l: { request_id: string }) => l.request_id));
      next = page.next_cursor;
    } while (next);
    expect(account).toEqual(expected);
  });

  it('refuses people without logs:read (403, never an empty search), and shows no trace outside the workspace', async () => {
    const made = await api('POST', '/v1/quotes', {
      key: tenant.keys.test,
      body: quoteRequest(tenant),
    });
    await searchUntilFound(reader, made.headers.get('x-request-id')!);
    const noLogs = await createPerson(tenant, { permissions: ['books:edit'] });
    const res = await api('GET', `/v1/request-logs?requestId=${made.headers.get('x-request-id')}`, { key: noLogs.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('logs:read') });
    // Refused before the query is read: a bad query gets the same 403.
    expect((await api('GET', '/v1/request-logs?status=abc', { key: noLogs.token })).status).toBe(403);
    const outsider = await createPerson(await createTenant(), { permissions: 'all' });
    expect((await api('GET', `/v1/quote-intents/${made.body.data.quoteIntent.id}/trace`, { key: outsider.token })).status).toBe(404);
    expect((await api('GET', '/v1/request-logs?status=abc', { key: reader.token })).status).toBe(400);
  });

  it("names each delivery's endpoint by URL, and says when that endpoint has been deleted since", async () => {
    const own = await createTenant();
    const admin = await createPerson(own, { permissions: ['logs:read', 'webhooks:manage'] });
    const endpoint = async (url: string) =>
      (await api('POST', '/v1/webhook-endpoints', { key: admin.token, body: { projectId: own.projectId, environment: 'test', url } })).body.data
        .endpoint;
    const kept = await endpoint('https://hooks.example.com/kept');
    const removed = await endpoint('https://hooks.example.com/removed');
    const made = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own) });
    expect(made.status).toBe(201);
    expect((await api('DELETE', `/v1/webhook-endpoints/${removed.id}`, { key: admin.token })).status).toBe(200);

    const trace = await api('GET', `/v1/quote-intents/${made.body.data.quoteIntent.id}/trace`, { key: admin.token });
    expect(trace.status).toBe(200);
    const deliveries = trace.body.data.events[0].deliveries as { endpointId: string; endpointUrl: string; endpointDeleted: boolean }[];
    expect(deliveries.map(({ endpointId, endpointUrl, endpointDeleted }) => ({ endpointId, endpointUrl, endpointDeleted })).sort((a, b) => a.endpointUrl.localeCompare(b.endpointUrl))).toEqual([
      { endpointId: kept.id, endpointUrl: 'https://hooks.example.com/kept', endpointDeleted: false },
      { endpointId: removed.id, endpointUrl: 'https://hooks.example.com/removed', endpointDeleted: true },
    ]);
  });
});
