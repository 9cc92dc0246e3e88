import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { flushRequestLog } from '../support/request-log';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * `Test-Fault` (lib/http/steps/test-fault.ts): a Test key asks for the failure its integration
 * must survive and gets it as production answers it, with nothing counted or written; Live keys
 * are refused. The request log keeps what was asked.
 */
describe('Test-Fault: failures on demand in Test', () => {
  let tenant: Tenant;
  let reader: Person;
  const quotesOf = () => testDb().quoteIntent.count({ where: { businessId: tenant.businessId } });
  const loggedFault = async (requestId: string) => {
    await flushRequestLog();
    const res = await api('GET', `/v1/request-logs?requestId=${requestId}`, { key: reader.token });
    return res.body.data.logs[0]?.testFault ?? null;
  };

  beforeAll(async () => {
    tenant = await createTenant();
    reader = await createPerson(tenant, { permissions: ['logs:read'] });
  });

  it('rate_limited: a 429 with retry-after and the route quota headers; no quote, logged as asked', async () => {
    const before = await quotesOf();
    const res = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'test-fault': 'rate_limited', 'idempotency-key': crypto.randomUUID() }, body: quoteRequest(tenant) });
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'rate_limited', message: 'Too many requests. Retry after 1 second.' });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await quotesOf()).toBe(before);
    expect(await loggedFault(res.headers.get('x-request-id')!)).toBe('rate_limited');
  });

  it('server_error and unavailable: the 500 and 503 production answers, nothing written', async () => {
    const quote = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    const before = await quotesOf();
    const failed = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'test-fault': 'server_error', 'idempotency-key': crypto.randomUUID() }, body: quoteRequest(tenant) });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal_error');
    expect(failed.body.error.message).toBe(`Something went wrong on our side. Quote request id ${failed.headers.get('x-request-id')} if you contact support.`);
    const unavailable = await api('POST', `/v1/quote-intents/${quote.body.data.quoteIntent.id}/verification`, { key: tenant.keys.test, headers: { 'test-fault': 'unavailable' } });
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error.code).toBe('service_unavailable');
    expect(unavailable.headers.get('retry-after')).toBe('1');
    expect(await quotesOf()).toBe(before);
    expect(await loggedFault(failed.headers.get('x-request-id')!)).toBe('server_error');
  });

  it('delay: the request is handled and answered late, so a client that gave up meets the replay', async () => {
    const key = crypto.randomUUID();
    const started = performance.now();
    const slow = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'test-fault': 'delay=400', 'idempotency-key': key }, body: quoteRequest(tenant) });
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(slow.status).toBe(201);
    const retried = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'idempotency-key': key }, body: quoteRequest(tenant) });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data.quoteIntent.id).toBe(slow.body.data.quoteIntent.id);
    expect(await loggedFault(slow.headers.get('x-request-id')!)).toBe('delay=400');
  });

  it('the account surface answers in its own envelope', async () => {
    const res = await api('GET', '/v1/accounts/current', { key: tenant.keys.test, headers: { 'test-fault': 'server_error' } });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ code: 'internal_error', param: '', request_id: res.headers.get('x-request-id') });
  });

  it('is refused with a Live key and for an unknown fault, ignored where no key may call: Live is never disturbed on purpose', async () => {
    const before = await quotesOf();
    const live = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'test-fault': 'server_error', 'idempotency-key': crypto.randomUUID() }, body: quoteRequest(tenant) });
    expect(live.status).toBe(400);
    expect(live.body.error.code).toBe('invalid_request');
    expect(live.body.error.message).toContain('refused with a Live key');
    expect(await quotesOf()).toBe(before);
    const unknown = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'test-fault': 'delay=999999', 'idempotency-key': crypto.randomUUID() }, body: quoteRequest(tenant) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('Test-Fault must be one of rate_limited, server_error, unavailable, delay=<ms>');
    expect(await quotesOf()).toBe(before);
    // The hosted page's route takes no key: the header means nothing there, and changes nothing.
    const { bookId: _book, ...publicRequest } = quoteRequest(tenant);
    const anonymous = await api('POST', '/v1/public_quotes', { headers: { 'test-fault': 'server_error' }, body: publicRequest });
    expect(anonymous.status).toBe(201);
  });

  it('is documented on every route an API key may call', async () => {
    const doc = (await api('GET', '/v1/openapi.json')).body;
    const quotes = doc.paths['/v1/quotes'].post;
    expect(quotes.parameters.map((p: { name: string }) => p.name)).toContain('test-fault');
    expect(Object.keys(quotes.responses)).toEqual(expect.arrayContaining(['429', '500', '503']));
    expect(doc.paths['/v1/public_quotes'].post.parameters?.map((p: { name: string }) => p.name) ?? []).not.toContain('test-fault');
  });
});
