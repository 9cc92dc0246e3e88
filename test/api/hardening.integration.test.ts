import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../../lib/keys/create-api-key';
import { api, type ApiResponse } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { rawExchange } from '../../lib/testing/raw-http';

// Crafted and careless input, each answered in the envelope with a 4xx that names what is wrong;
// authentication, then authorization, then validation. docs/reliability.md lists the rules.

const branding = { displayName: 'Shiny Windows', logoUrl: null, primaryColor: '#112233', accentColor: '#445566' };

function expectFieldError(res: ApiResponse, status: number, code: string, field: string, message?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(Object.keys(res.body.error.details.fields)).toContain(field);
  if (message) expect(res.body.error.details.fields[field]).toEqual([expect.stringContaining(message)]);
}

/** The demo body as JSON text, with `extra` spliced in as raw JSON members (keys JSON.stringify would not write). */
function withRawMembers(body: object, extra: string): string {
  return JSON.stringify(body).replace(/}$/, `,${extra}}`);
}

const json = { 'content-type': 'application/json' };
const nest = (levels: number): unknown => (levels === 0 ? 1 : { a: nest(levels - 1) });

describe('hardening: bodies', () => {
  let tenant: Tenant;
  let admin: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: 'all' });
  });

  it("answers a field named like an Object.prototype member with the route's validation error naming it", async () => {
    const publicBody = { businessId: tenant.businessId, offeringId: 'window_cleaning', factors: {} };
    for (const name of ['toString', 'valueOf', 'constructor', 'hasOwnProperty', 'isPrototypeOf', '__proto__']) {
      const res = await api('POST', '/v1/public_quotes', { rawBody: withRawMembers(publicBody, `"${name}":1`), headers: json });
      expectFieldError(res, 422, 'invalid_quote_request', name);
    }
    const proto = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      key: admin.token,
      rawBody: withRawMembers(branding, '"__proto__":{"isAdmin":true}'),
      headers: json,
    });
    expectFieldError(proto, 400, 'invalid_request', '__proto__', 'is not an allowed field name');
    // Inside a record too: a factor answer named __proto__ would otherwise set a prototype.
    const inFactors = await api('POST', '/v1/public_quotes', {
      rawBody: JSON.stringify(publicBody).replace('"factors":{}', '"factors":{"__proto__":{"home_size":"large"}}'),
      headers: json,
    });
    expectFieldError(inFactors, 422, 'invalid_quote_request', 'factors.__proto__');
  });

  it('refuses JSON nested deeper than 32 levels, however small, with a 4xx naming where', async () => {
    const deep = `${'{"a":'.repeat(5000)}"\\uD800"${'}'.repeat(5000)}`;
    const res = await api('POST', '/v1/public_quotes', { rawBody: deep, headers: json });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('nests deeper than 32 levels');
    const simulate = (context: unknown) =>
      api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, {
        key: tenant.keys.test,
        body: { services: [{ service: 'window_cleaning', selections: { home_size: 'small', storeys: '1', access: 'easy' } }], context },
      });
    // The body is level 0 and `context` level 1: 31 nested objects fit, 32 do not.
    expect((await simulate(nest(31))).status).toBe(200);
    const tooDeep = await simulate(nest(32));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error).toMatchObject({ code: 'invalid_request', param: `context${'.a'.repeat(31)}` });
  });

  it('refuses NUL in any stored string with a validation error naming the field, and stores nothing', async () => {
    const nul = '\u0000';
    expectFieldError(
      await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: admin.token, body: { ...branding, displayName: `A${nul}B` } }),
      400,
      'invalid_request',
      'displayName',
      'NUL',
    );
    expectFieldError(
      await api('POST', '/v1/api-keys', { key: admin.token, body: { name: `nulkey${nul}`, projectId: tenant.projectId, environment: 'test' } }),
      400,
      'invalid_request',
      'name',
      'NUL',
    );
    expectFieldError(
      await api('POST', '/v1/webhook-endpoints', {
        key: admin.token,
        body: { projectId: tenant.projectId, environment: 'test', url: 'https://hooks.example.com/x', description: `d${nul}` },
      }),
      400,
      'invalid_request',
      'description',
      'NUL',
    );
    expectFieldError(
      await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { idempotencyKey: `order-1${nul}234` }) }),
      422,
      'invalid_quote_request',
      'idempotencyKey',
      'NUL',
    );
    const accountQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
      key: tenant.keys.test,
      headers: { 'idempotency-key': `nul-${Date.now()}` },
      body: { services: [{ service: 'window_cleaning', selections: { home_size: `small${nul}` } }] },
    });
    expect(accountQuote.status).toBe(400);
    expect(accountQuote.body.error).toMatchObject({ code: 'invalid_request', param: 'services.0.selections.home_size' });
    const inKey = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { factors: { [`a${nul}b`]: 'x' } }) });
    expectFieldError(inKey, 422, 'invalid_quote_request', `factors.a${nul}b`, 'name must not contain');
    const inQuery = await api('GET', `/v1/request-logs?path=%2Fv1%00`, { key: admin.token });
    expectFieldError(inQuery, 400, 'invalid_request', 'path', 'NUL');
    const stored = await testDb().business.findUniqueOrThrow({ where: { id: tenant.businessId }, select: { displayName: true } });
    expect(stored.displayName).not.toContain(nul);
    expect(await testDb().apiKey.count({ where: { projectId: tenant.projectId, name: { startsWith: 'nulkey' } } })).toBe(0);
  });
});

describe('hardening: authentication, then authorization, then validation', () => {
  let tenant: Tenant;
  let viewer: Person;
  let owner: Person;
  let admin: Person;
  let stranger: Person;
  let editor: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    [viewer, owner, admin, editor] = await Promise.all([
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(tenant, { businessRole: 'owner' }),
      createPerson(tenant, { permissions: 'all' }),
      createPerson(tenant, { permissions: ['books:edit'] }),
    ]);
    stranger = await createPerson(await createTenant(), { permissions: 'all', businessRole: 'owner' });
  });

  it('answers 403, not 400, to a business member without the right who sends a bad body', async () => {
    const badBranding = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: viewer.token, body: { x: 1 } });
    expect(badBranding.status).toBe(403);
    expect(badBranding.body.error.code).toBe('forbidden');
    const badRole = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${owner.membershipId}`, {
      key: viewer.token,
      body: { role: 'emperor' },
    });
    expect(badRole.status).toBe(403);
    expect(badRole.body.error.code).toBe('not_business_owner');
  });

  it('answers 403 not_business_owner to anyone but an owner who changes or removes a membership (spec 4.2)', async () => {
    for (const person of [stranger, admin, viewer]) {
      const patch = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${viewer.membershipId}`, {
        key: person.token,
        body: { role: 'editor' },
      });
      expect(patch.status).toBe(403);
      expect(patch.body.error.code).toBe('not_business_owner');
      const remove = await api('DELETE', `/v1/businesses/${tenant.businessId}/members/${viewer.membershipId}`, { key: person.token });
      expect(remove.status).toBe(403);
      expect(remove.body.error.code).toBe('not_business_owner');
    }
    const byOwner = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${viewer.membershipId}`, {
      key: owner.token,
      body: { role: 'viewer' },
    });
    expect(byOwner.status).toBe(200);
  });

  it('answers 404 quote_scope_not_found to a workspace admin who is not a member of the business, whatever the body', async () => {
    const res = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: admin.token, body: { offeringId: 7 } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('quote_scope_not_found');
    const member = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token, body: { offeringId: 7 } });
    expect(member.status).toBe(422);
  });

  it('refuses a missing permission before reading the body, on body-addressed and path-addressed routes', async () => {
    const key = await api('POST', '/v1/api-keys', { key: editor.token, body: { nonsense: true } });
    expect(key.status).toBe(403);
    const version = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: editor.token, rawBody: '{not json', headers: json });
    expect(version.status).toBe(403);
    const otherAccount = await api('POST', `/v1/accounts/${(await createTenant()).projectId}/quote-simulations`, {
      key: tenant.keys.test,
      body: { services: 'none' },
    });
    expect(otherAccount.status).toBe(404);
    expect(otherAccount.body.error).toMatchObject({ code: 'not_found', request_id: otherAccount.headers.get('x-request-id') });
    const scopeless = (
      await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'read only', scopes: ['accounts:read'] })
    ).secret;
    const noScope = await api('POST', `/v1/accounts/${tenant.projectId}/quote-simulations`, { key: scopeless, body: { services: 'none' } });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe('insufficient_scope');
  });
});

describe('hardening: every /v1 answer is in the envelope, with an x-request-id', () => {
  const base = () => inject('baseUrl');
  const request = (method: string, path: string, headers: string[] = [], body = '') =>
    [`${method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers].join('\r\n') + `\r\n\r\n${body}`;

  it('answers OPTIONS with the methods the path has, and a request id', async () => {
    const tenant = await createTenant();
    for (const [path, allow] of [
      ['/v1/quotes', 'GET, HEAD, POST, OPTIONS'],
      ['/v1/public_quotes', 'POST, OPTIONS'],
      [`/v1/books/${tenant.bookId}`, 'GET, HEAD, OPTIONS'],
      ['/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
    ]) {
      const res = await fetch(`${base()}${path}`, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const unknown = await fetch(`${base()}/v1/nothing-here`, { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers what Next.js or Node would answer outside the envelope in it instead', async () => {
    const expectEnvelope = (status: number, code: string, res: { status: number; headers: Record<string, string> | Headers; body: string }) => {
      const requestId = res.headers instanceof Headers ? res.headers.get('x-request-id') : res.headers['x-request-id'];
      expect(res.status, res.body).toBe(status);
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).toEqual({ error: { code, message: expect.any(String), requestId } });
    };
    const text = async (res: Response) => ({ status: res.status, headers: res.headers, body: await res.text() });
    expectEnvelope(400, 'invalid_request', await text(await fetch(`${base()}/v1/public_quotes/%E0%A4%A`)));
    expectEnvelope(404, 'not_found', await text(await fetch(`${base()}/v1`)));
    expectEnvelope(405, 'method_not_allowed', await rawExchange([request('TRACE', '/v1/quotes')]));
    expectEnvelope(405, 'method_not_allowed', await rawExchange([request('PROPFIND', '/v1/quotes')]));
    expectEnvelope(400, 'invalid_request', await rawExchange(['GARBAGE\r\n\r\n']));
    expectEnvelope(431, 'headers_too_large', await rawExchange([request('GET', '/v1/status', [`X-Big: ${'a'.repeat(20_000)}`])]));
    // The account surface's own error shape, there too.
    const account = await fetch(`${base()}/v1/accounts/%E0%A4%A`);
    const requestId = account.headers.get('x-request-id');
    expect(await account.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String), param: '', request_id: requestId } });
    // Next's own redirect (a trailing slash) is not an error, but it carries a request id too.
    const redirect = await fetch(`${base()}/v1/quotes/`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a client that sends its request and then half-closes the connection', async () => {
    const tenant = await createTenant();
    const body = JSON.stringify({ businessId: tenant.businessId, offeringId: 'window_cleaning', factors: {} });
    const res = await rawExchange(
      [request('POST', '/v1/public_quotes', ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`], body)],
      { halfClose: true },
    );
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).data.quoteIntent.requestCorrelationId).toBe(res.headers['x-request-id']);
  });
});
