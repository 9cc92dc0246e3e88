import { describe, expect, it } from 'vitest';
import type { HttpMethod, RouteContract } from './contract';
import type { RouteHandler } from './define-route';
import { allowHeader, createRouter } from './router';

/** A handler that answers what it was given: which route, its params and the method. */
const echo = (method: HttpMethod, path: string): RouteHandler =>
  Object.assign(async (request: Request, context: { params: Promise<Record<string, unknown>> }) => Response.json({ route: `${method} ${path}`, params: await context.params, method: request.method }), {
    contract: { method, path } as RouteContract,
  });

const router = createRouter({
  '/v1/accounts/current': { GET: echo('GET', '/v1/accounts/current') },
  '/v1/accounts/{id}': { GET: echo('GET', '/v1/accounts/{id}') },
  '/v1/accounts/{id}/quotes': { POST: echo('POST', '/v1/accounts/{id}/quotes') },
  '/v1/books/{bookId}': { GET: echo('GET', '/v1/books/{bookId}'), PUT: echo('PUT', '/v1/books/{bookId}') },
});
const call = async (method: string, path: string) => {
  const response = await router.handle(new Request(`http://localhost${path}`, { method }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
};

describe('the router', () => {
  it('matches literal segments before parameters, and decodes parameters', async () => {
    expect((await call('GET', '/v1/accounts/current')).body.route).toBe('GET /v1/accounts/current');
    expect((await call('GET', '/v1/accounts/acc%20one')).body).toEqual({ route: 'GET /v1/accounts/{id}', params: { id: 'acc one' }, method: 'GET' });
    // `current` is a literal for GET only: under it, the parameter's routes still match.
    expect((await call('POST', '/v1/accounts/current/quotes')).body).toMatchObject({ route: 'POST /v1/accounts/{id}/quotes', params: { id: 'current' } });
  });

  it('ignores the query string, and answers HEAD with GET without its body', async () => {
    expect((await call('GET', '/v1/books/b1?include=versions&x=%zz')).body).toMatchObject({ params: { bookId: 'b1' } });
    const head = await call('HEAD', '/v1/books/b1');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it('refuses a table whose file place and contract disagree', () => {
    expect(() => createRouter({ '/v1/books': { GET: echo('GET', '/v1/books/{bookId}') } })).toThrow(/must agree/);
    expect(() => createRouter({ '/v1/books': { POST: echo('GET', '/v1/books') } })).toThrow(/must agree/);
  });

  it('lists a path’s methods as Allow: HEAD with GET, and OPTIONS always', () => {
    expect(allowHeader(['GET', 'PUT'])).toBe('GET, HEAD, PUT, OPTIONS');
    expect(allowHeader(['POST'])).toBe('POST, OPTIONS');
  });
});
