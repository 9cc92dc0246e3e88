import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/create-api-key';
import { MEMBER_ROUTE_WITH_API_KEY } from '../../lib/http/steps/authenticate';
import { api, type ApiResponse } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Tenant } from '../../lib/testing/factories';

// Issue 40: reading quotes back with an API key (GET /v1/quotes, GET /v1/quotes/{id}) and on the
// account surface (GET /v1/accounts/{id}/quotes[/{quoteId}]); additions to the spec.

type QuoteResult = { quoteIntent: { id: string; environmentId: string; status: string; createdAt: string; inputs: { offeringId: string } }; quoteReceipt: { quoteIntentId: string } };

async function quote(tenant: Tenant, environment: 'test' | 'live', extra: Record<string, unknown> = {}): Promise<QuoteResult> {
  const res = await api('POST', '/v1/quotes', { key: tenant.keys[environment], body: quoteRequest(tenant, extra) });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** Every page of a list, following `nextCursor`. */
async function allPages(key: string, query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: ApiResponse = await api('GET', `/v1/quotes?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.quotes.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.quotes.map((q: QuoteResult) => q.quoteIntent.id));
    cursor = res.body.data.nextCursor;
    pages++;
  } while (cursor && pages < 50);
  return { ids, pages };
}

function expectError(res: ApiResponse, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
}

describe('GET /v1/quotes and /v1/quotes/{id} (API key)', () => {
  let tenant: Tenant;
  let other: Tenant;
  let made: QuoteResult[];
  let live: QuoteResult;
  let foreign: QuoteResult;

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    made = [];
    // One by one, so that their order is known; several share a millisecond, which the id orders.
    for (let i = 0; i < 5; i++) made.push(await quote(tenant, 'test'));
    made.push(await quote(tenant, 'test', { offeringId: 'no_such_offering' })); // failed
    made.push(await quote(tenant, 'test', { factors: {} })); // requires_input
    live = await quote(tenant, 'live');
    foreign = await quote(other, 'test');
  });

  it('lists the environment’s quotes newest first, each as POST /v1/quotes answered it', async () => {
    const res = await api('GET', '/v1/quotes', { key: tenant.keys.test });
    expect(res.status).toBe(200);
    const quotes: QuoteResult[] = res.body.data.quotes;
    const byTime = [...quotes].sort((a, b) => b.quoteIntent.createdAt.localeCompare(a.quoteIntent.createdAt) || b.quoteIntent.id.localeCompare(a.quoteIntent.id));
    expect(quotes.map((q) => q.quoteIntent.id)).toEqual(byTime.map((q) => q.quoteIntent.id));
    expect(new Set(quotes.map((q) => q.quoteIntent.id))).toEqual(new Set(made.map((q) => q.quoteIntent.id)));
    expect(quotes.find((q) => q.quoteIntent.id === made[0].quoteIntent.id)).toEqual(made[0]);
    expect(res.body.data.nextCursor).toBeNull();
  });

  it('pages with the cursor without gaps or repeats', async () => {
    const everything = await allPages(tenant.keys.test, '', 100);
    for (const limit of [1, 2, 3]) {
      const paged = await allPages(tenant.keys.test, '', limit);
      expect(paged.ids).toEqual(everything.ids);
      expect(paged.pages).toBe(Math.ceil(made.length / limit));
    }
  });

  it('filters by status, offering and time, and pages within a filter', async () => {
    const ids = async (query: string) => (await allPages(tenant.keys.test, query, 2)).ids;
    expect(await ids('&status=failed')).toEqual([made[5].quoteIntent.id]);
    expect(await ids('&status=requires_input')).toEqual([made[6].quoteIntent.id]);
    expect((await ids('&status=succeeded')).sort()).toEqual(made.slice(0, 5).map((q) => q.quoteIntent.id).sort());
    expect(await ids('&status=expired')).toEqual([]);
    expect(await ids('&offeringId=no_such_offering')).toEqual([made[5].quoteIntent.id]);
    expect(await ids('&offeringId=window_cleaning')).toHaveLength(6);

    // Times set apart so the bounds are exact: both ends are included, as the request log's `from`/`to`.
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 12, minutes));
    const own = await createTenant();
    const [a, b, c] = [await quote(own, 'live'), await quote(own, 'live'), await quote(own, 'live')];
    for (const [q, minute] of [[a, 0], [b, 10], [c, 20]] as const) {
      await testDb().quoteIntent.update({ where: { id: q.quoteIntent.id }, data: { createdAt: at(minute) } });
    }
    const live = async (query: string) => (await allPages(own.keys.live, query, 1)).ids;
    expect(await live(`&from=${at(10).toISOString()}`)).toEqual([c.quoteIntent.id, b.quoteIntent.id]);
    expect(await live(`&to=${at(10).toISOString()}`)).toEqual([b.quoteIntent.id, a.quoteIntent.id]);
    expect(await live(`&from=${encodeURIComponent('2030-01-01T13:05:00+01:00')}&to=${at(15).toISOString()}`)).toEqual([b.quoteIntent.id]);
    expect(await live(`&from=${at(21).toISOString()}`)).toEqual([]);
  });

  it('reads an expired intent as expired, in the list, its filter and by id', async () => {
    const own = await createTenant();
    const q = await quote(own, 'test');
    await testDb().quoteIntent.update({ where: { id: q.quoteIntent.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const listed = await api('GET', '/v1/quotes?status=expired', { key: own.keys.test });
    expect(listed.body.data.quotes.map((r: QuoteResult) => [r.quoteIntent.id, r.quoteIntent.status])).toEqual([[q.quoteIntent.id, 'expired']]);
    expect((await api('GET', '/v1/quotes?status=succeeded', { key: own.keys.test })).body.data.quotes).toEqual([]);
    expect((await api('GET', `/v1/quotes/${q.quoteIntent.id}`, { key: own.keys.test })).body.data.quoteIntent.status).toBe('expired');
  });

  it('never shows another tenant’s or the other environment’s quotes, and reads them as 404', async () => {
    const listed = (await allPages(tenant.keys.test, '', 100)).ids;
    expect(listed).not.toContain(live.quoteIntent.id);
    expect(listed).not.toContain(foreign.quoteIntent.id);
    expect((await allPages(tenant.keys.live, '', 100)).ids).toEqual([live.quoteIntent.id]);
    expect((await allPages(other.keys.test, '', 100)).ids).toEqual([foreign.quoteIntent.id]);
    expect((await allPages(other.keys.live, '', 100)).ids).toEqual([]);

    const own = await api('GET', `/v1/quotes/${made[2].quoteIntent.id}`, { key: tenant.keys.test });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual(made[2]);
    expect(own.body.requestId).toBe(own.headers.get('x-request-id'));
    expectError(await api('GET', `/v1/quotes/${live.quoteIntent.id}`, { key: tenant.keys.test }), 404, 'not_found');
    expectError(await api('GET', `/v1/quotes/${made[2].quoteIntent.id}`, { key: tenant.keys.live }), 404, 'not_found');
    expectError(await api('GET', `/v1/quotes/${foreign.quoteIntent.id}`, { key: tenant.keys.test }), 404, 'not_found');
    expectError(await api('GET', `/v1/quotes/${made[2].quoteIntent.id}`, { key: other.keys.test }), 404, 'not_found');
    expectError(await api('GET', `/v1/quotes/${randomUUID()}`, { key: tenant.keys.test }), 404, 'not_found');
  });

  it('takes any valid key (no scope), and refuses a missing or unknown one', async () => {
    const noScopes = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'no scopes', scopes: [] });
    expect((await api('GET', '/v1/quotes?limit=1', { key: noScopes.secret })).status).toBe(200);
    expect((await api('GET', `/v1/quotes/${made[0].quoteIntent.id}`, { key: noScopes.secret })).status).toBe(200);
    expectError(await api('GET', '/v1/quotes'), 401, 'invalid_api_key');
    expectError(await api('GET', `/v1/quotes/${made[0].quoteIntent.id}`, { key: 'sk_test_nope' }), 401, 'invalid_api_key');
    const person = await createPerson(tenant, { permissions: 'all' });
    expectError(await api('GET', '/v1/quotes', { key: person.token }), 401, 'invalid_api_key');
  });

  it('answers bad filters, cursors and ids with a clear 4xx, never a 500', async () => {
    const bad = [
      '?status=nope',
      '?status=%00',
      '?offeringId=%00',
      `?offeringId=${'x'.repeat(81)}`,
      '?offeringId=',
      '?from=yesterday',
      '?to=2030-02-30T00:00:00Z',
      '?from=%00',
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?cursor=nope',
      '?cursor=%00',
      `?cursor=${encodeURIComponent(`2030-01-01T00:00:00Z|not-a-uuid`)}`,
      `?cursor=${encodeURIComponent(`-200000-01-01T00:00:00Z|${randomUUID()}`)}`,
      `?cursor=${encodeURIComponent(`+275760-09-13T00:00:00Z|${randomUUID()}`)}`,
      '?businessId=x',
    ];
    for (const query of bad) {
      const res = await api('GET', `/v1/quotes${query}`, { key: tenant.keys.test });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.message.length, query).toBeGreaterThan(10);
    }
    // A cursor of the far past or future is a valid position: nothing before it, or everything.
    const past = await api('GET', `/v1/quotes?cursor=${encodeURIComponent(`0001-01-01T00:00:00Z|${randomUUID()}`)}`, { key: tenant.keys.test });
    expect(past.body.data.quotes).toEqual([]);
    const future = await api('GET', `/v1/quotes?cursor=${encodeURIComponent(`9999-12-31T00:00:00Z|${randomUUID()}`)}`, { key: tenant.keys.test });
    expect(future.body.data.quotes).toHaveLength(made.length);
    for (const id of ['nope', '%00', 'x'.repeat(300)]) {
      const res = await api('GET', `/v1/quotes/${id}`, { key: tenant.keys.test });
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
    }
  });
});

describe('GET /v1/accounts/{id}/quotes and /{quoteId} (account surface)', () => {
  let tenant: Tenant;
  let other: Tenant;
  const priced = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' } };

  async function produce(t: Tenant, environment: 'test' | 'live') {
    const res = await api('POST', `/v1/accounts/${t.projectId}/quotes`, {
      key: t.keys[environment],
      body: { services: [priced] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(201);
    return res.body as { quote_id: string; state: string };
  }

  function expectAccountError(res: ApiResponse, status: number, code: string, param = '') {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toEqual({ error: { code, message: expect.any(String), param, request_id: res.headers.get('x-request-id') } });
  }

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  });

  it('lists the account’s quotes of the key’s environment, newest first, in the surface’s list envelope', async () => {
    const produced: { quote_id: string; state: string }[] = [];
    for (let i = 0; i < 3; i++) produced.push(await produce(tenant, 'test'));
    const liveQuote = await produce(tenant, 'live');
    await produce(other, 'test');

    const res = await api('GET', `/v1/accounts/${tenant.projectId}/quotes`, { key: tenant.keys.test });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((q: { id: string }) => q.id).sort()).toEqual(produced.map((q) => q.quote_id).sort());
    const created = res.body.data.map((q: { created: string }) => q.created);
    expect(created).toEqual([...created].sort().reverse());
    const first = res.body.data.find((q: { id: string }) => q.id === produced[0].quote_id);
    expect(first).toEqual({
      object: 'account_quote',
      id: produced[0].quote_id,
      state: produced[0].state,
      expired: false,
      review: null,
      commitment: null,
      created: expect.any(String),
      quote: produced[0],
    });

    // Pages of one, with has_more and next_cursor, the same quotes in the same order.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await api('GET', `/v1/accounts/${tenant.projectId}/quotes?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: tenant.keys.test });
      expect(page.body.data).toHaveLength(1);
      paged.push(page.body.data[0].id);
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(paged).toEqual(res.body.data.map((q: { id: string }) => q.id));

    for (const state of ['quoted', 'awaiting_approval'] as const) {
      const filtered = await api('GET', `/v1/accounts/${tenant.projectId}/quotes?state=${state}`, { key: tenant.keys.test });
      const expected = res.body.data.filter((q: { state: string }) => q.state === state).map((q: { id: string }) => q.id);
      expect(filtered.body.data.map((q: { id: string }) => q.id)).toEqual(expected);
    }
    expect(produced.some((q) => q.state === 'quoted')).toBe(true);

    // One by id; the other environment's and another account's are 404, as is another account id.
    const one = await api('GET', `/v1/accounts/${tenant.projectId}/quotes/${produced[1].quote_id}`, { key: tenant.keys.test });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ object: 'account_quote', id: produced[1].quote_id, quote: produced[1] });
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/quotes/${liveQuote.quote_id}`, { key: tenant.keys.test }), 404, 'not_found', 'quoteId');
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/quotes/${randomUUID()}`, { key: tenant.keys.test }), 404, 'not_found', 'quoteId');
    expectAccountError(await api('GET', `/v1/accounts/${other.projectId}/quotes`, { key: tenant.keys.test }), 404, 'not_found', 'id');
    expectAccountError(await api('GET', `/v1/accounts/${other.projectId}/quotes/${produced[0].quote_id}`, { key: tenant.keys.test }), 404, 'not_found', 'id');
    const liveList = await api('GET', `/v1/accounts/${tenant.projectId}/quotes`, { key: tenant.keys.live });
    expect(liveList.body.data.map((q: { id: string }) => q.id)).toEqual([liveQuote.quote_id]);
  });

  it('needs quotes:write (403 insufficient_scope), and answers bad input in its own error shape', async () => {
    const readOnly = (await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'read only', scopes: ['accounts:read'] })).secret;
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/quotes`, { key: readOnly }), 403, 'insufficient_scope');
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/quotes/${randomUUID()}`, { key: readOnly }), 403, 'insufficient_scope');
    const writer = (await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'writer', scopes: ['quotes:write'] })).secret;
    expect((await api('GET', `/v1/accounts/${tenant.projectId}/quotes`, { key: writer })).status).toBe(200);
    expectAccountError(await api('GET', `/v1/accounts/${tenant.projectId}/quotes`), 401, 'invalid_api_key');

    for (const query of ['?state=nope', '?limit=0', '?limit=101', '?cursor=nope', '?cursor=%00', '?other=1']) {
      const res = await api('GET', `/v1/accounts/${tenant.projectId}/quotes${query}`, { key: tenant.keys.test });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(typeof res.body.error.param).toBe('string');
    }
  });
});

describe('member-session routes called with an API key', () => {
  it('answer 401 unauthorized saying the route takes a member’s session', async () => {
    const tenant = await createTenant();
    for (const path of [`/v1/quote-intents?businessId=${tenant.businessId}`, '/v1/businesses', '/v1/request-logs']) {
      const res = await api('GET', path, { key: tenant.keys.live });
      expectError(res, 401, 'unauthorized');
      expect(res.body.error.message).toBe(MEMBER_ROUTE_WITH_API_KEY);
    }
    // Without any credential the message stays the sign-in one.
    const anonymous = await api('GET', '/v1/businesses');
    expectError(anonymous, 401, 'unauthorized');
    expect(anonymous.body.error.message).not.toBe(MEMBER_ROUTE_WITH_API_KEY);
  });
});
