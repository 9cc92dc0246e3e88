import { beforeAll, describe, expect, it } from 'vitest';
import { loggedRequest } from '../support/request-log';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { serviceFetch } from '../support/service-fetch';

/**
 * The router's answers to the requests a framework would answer outside the API's envelope,
 * on a quote route (POST /v1/quotes) and another (GET /v1/books/{bookId}): a query string, a
 * trailing slash, HEAD, OPTIONS, an unknown path, a wrong method, a malformed percent-encoding.
 */
describe('the router at the edges of its table', () => {
  let tenant: Tenant;
  let admin: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: 'all' });
  });
  const quote = (path: string, method = 'POST') =>
    serviceFetch(path, {
      method,
      headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(quoteRequest(tenant)) : undefined,
    });
  const book = (suffix = '', method = 'GET') => serviceFetch(`/v1/books/${tenant.bookId}${suffix}`, { method, headers: { authorization: `Bearer ${admin.token}` } });
  const expectError = async (res: Response, status: number, code: string, surface: 'standard' | 'account' = 'standard') => {
    expect(res.status).toBe(status);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const body = await res.json();
    expect(body).toEqual(
      surface === 'account' ? { error: { code, message: expect.any(String), param: '', request_id: requestId } } : { error: { code, message: expect.any(String), requestId } },
    );
    return requestId!;
  };

  it('matches the path whatever the query string', async () => {
    expect((await quote('/v1/quotes?utm=1&x=%zz')).status).toBe(201);
    expect((await book('?include=everything')).status).toBe(200);
  });

  it('sends a trailing slash to the path without it, and logs the answer like any other', async () => {
    for (const res of [await quote('/v1/quotes/?a=1'), await book('/')]) {
      expect(res.status).toBe(308);
      const requestId = res.headers.get('x-request-id')!;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await loggedRequest(requestId)).toMatchObject({ status: 308 });
    }
    expect((await quote('/v1/quotes/?a=1')).headers.get('location')).toBe('/v1/quotes?a=1');
  });

  it('answers HEAD where there is GET, without a body, and 405 where there is none', async () => {
    const head = await book('', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // GET /v1/quotes lists the key's quotes, so HEAD answers there too; the public route has POST only.
    const quoteHead = await quote('/v1/quotes', 'HEAD');
    expect(quoteHead.status).toBe(200);
    expect(await quoteHead.text()).toBe('');
    const publicHead = await quote('/v1/public_quotes', 'HEAD');
    expect(publicHead.status).toBe(405);
    expect(publicHead.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers OPTIONS with the methods of the path', async () => {
    for (const [res, allow] of [
      [await quote('/v1/quotes', 'OPTIONS'), 'GET, HEAD, POST, OPTIONS'],
      [await quote('/v1/public_quotes', 'OPTIONS'), 'POST, OPTIONS'],
      [await book('', 'OPTIONS'), 'GET, HEAD, OPTIONS'],
    ] as const) {
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers an unknown path with 404 and a wrong method with 405 and allow, in each surface’s envelope; both are logged', async () => {
    const unknown = await expectError(await quote('/v1/quotes/extra/more'), 404, 'not_found');
    await expectError(await book('/nothing'), 404, 'not_found');
    await expectError(await serviceFetch('/v1/accounts/current/nothing'), 404, 'not_found', 'account');
    const wrong = await quote('/v1/public_quotes', 'GET');
    await expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    const deleteBook = await book('', 'DELETE');
    await expectError(deleteBook, 405, 'method_not_allowed');
    expect(deleteBook.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const row = await loggedRequest(unknown);
    expect(row).toMatchObject({ status: 404, errorCode: 'not_found', path: '/v1/quotes/extra/more' });
  });

  it('answers a malformed percent-encoding with 400, not 500', async () => {
    await expectError(await quote('/v1/quotes%E0%A4%A'), 400, 'invalid_request');
    await expectError(await serviceFetch(`/v1/books/%E0%A4%A`), 400, 'invalid_request');
    await expectError(await serviceFetch('/v1/accounts/%E0%A4%A'), 400, 'invalid_request', 'account');
  });
});
