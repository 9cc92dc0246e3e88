import { beforeAll, describe, expect, it } from 'vitest';
import { v1Contracts } from '../../app/v1/contracts';
import { allowHeader } from '../../lib/http/router';
import type { HttpMethod, RouteContract } from '../../lib/http/contract';
import { serviceFetch } from '../support/service-fetch';
import { api, type ApiResponse } from '../support/api-client';
import { createWorld, fixturesOfRegistry, type World } from '../support/route-fixtures';

// The shared security suite: every route of the registry (every route file's contract, app/v1/contracts.ts), with no
// credential, a credential of another tenant, a credential without the right, and a bad body, in
// the order the wrapper checks them: authentication, then authorization, then validation. A route
// added to the registry without an entry in test/support/route-fixtures.ts fails here.

const routes = fixturesOfRegistry();

function expectError(res: ApiResponse, contract: RouteContract, status: number, code: string) {
  expect(res.status, `${contract.method} ${contract.path}: ${res.text}`).toBe(status);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  if (contract.surface === 'account') {
    expect(res.body).toEqual({ error: { code, message: expect.any(String), param: expect.any(String), request_id: requestId } });
  } else {
    expect(res.body.error).toMatchObject({ code, message: expect.any(String), requestId });
  }
}

describe('security suite: every route of the registry', () => {
  let world: World;
  let other: World;
  beforeAll(async () => {
    [world, other] = await Promise.all([createWorld(), createWorld()]);
  });

  const call = (contract: RouteContract, w: World, options: { key?: string; body?: unknown; query?: string } = {}) => {
    const { fixture } = routes.find((r) => r.contract === contract)!;
    return api(contract.method, `${fixture.path(w)}${options.query ?? ''}`, {
      key: options.key,
      headers: fixture.headers?.(w),
      body: options.body ?? (contract.body ? fixture.body?.(w) : undefined),
    });
  };
  const badBodyOf = (contract: RouteContract) => routes.find((r) => r.contract === contract)!.fixture.badBody ?? { unexpectedField: 1 };

  for (const { contract, fixture } of routes) {
    const name = `${contract.method} ${contract.path}`;
    describe(name, () => {
      if (contract.auth !== 'anonymous') {
        it('refuses a request without a credential (401), whatever its body', async () => {
          const res = await call(contract, world, { body: contract.body ? badBodyOf(contract) : undefined });
          expectError(res, contract, 401, contract.auth === 'api_key' ? 'invalid_api_key' : 'unauthorized');
        });
      }

      if (typeof fixture.foreign === 'object') {
        const foreign = fixture.foreign;
        it(`answers ${foreign.status} ${foreign.code} to another tenant, telling it nothing`, async () => {
          const res = await call(contract, world, { key: fixture.as(other) });
          expectError(res, contract, foreign.status, foreign.code);
          expect(res.text).not.toContain(world.tenant.workspaceId);
        });
      } else if (fixture.foreign === 'own rows only') {
        it("lists only the caller's own rows to another tenant", async () => {
          const res = await call(contract, world, { key: fixture.as(other) });
          expect(res.status).toBe(200);
          // Request paths are what the caller typed (it may have typed this world's ids); rows are not.
          const rows = JSON.stringify(res.body, (field, value) => (field === 'path' ? undefined : value));
          for (const id of [world.tenant.workspaceId, world.tenant.projectId, world.tenant.businessId]) expect(rows).not.toContain(id);
        });
      }

      if (fixture.lacking) {
        const lacking = fixture.lacking;
        it(`answers ${lacking.status} ${lacking.code} to a credential without the right, before reading the body`, async () => {
          const res = await call(contract, world, { key: lacking.as(world), body: contract.body ? badBodyOf(contract) : undefined, query: fixture.badQuery });
          expectError(res, contract, lacking.status, lacking.code);
        });
      }

      if (contract.body) {
        it('refuses a bad body with the validation error, naming the field', async () => {
          const res = await call(contract, world, { key: fixture.as(world), body: badBodyOf(contract) });
          const code = contract.validationCode ?? 'invalid_request';
          expectError(res, contract, code === 'invalid_quote_request' ? 422 : 400, code);
          if (contract.surface === 'account') expect(res.body.error.param).not.toBe('');
          else expect(Object.keys(res.body.error.details.fields).length).toBeGreaterThan(0);
        });
      }

      if (fixture.badQuery) {
        it('refuses a bad query with the validation error', async () => {
          const res = await call(contract, world, { key: fixture.as(world), query: fixture.badQuery });
          expectError(res, contract, 400, 'invalid_request');
        });
      }

      // Last: a call made right may change the world (it deletes or rotates only spare resources).
      it('answers a well-formed request from a credential with the right', async () => {
        if (fixture.stream) {
          const stream = await serviceFetch(fixture.path(world), { headers: { authorization: `Bearer ${fixture.as(world)}` } });
          expect(stream.status).toBe(contract.success.status);
          expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
          expect(stream.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
          await stream.body?.cancel();
          return;
        }
        const res = await call(contract, world, { key: fixture.as(world) });
        expect(res.status, res.text).toBe(contract.success.status);
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      });
    });
  }

  it('answers OPTIONS on every path with exactly the methods of its contracts', async () => {
    const byPath = new Map<string, { methods: HttpMethod[]; path: string }>();
    for (const { contract, fixture } of routes) {
      const entry = byPath.get(contract.path) ?? { methods: [], path: fixture.path(world) };
      entry.methods.push(contract.method);
      byPath.set(contract.path, entry);
    }
    for (const [template, { methods, path }] of byPath) {
      // Not through api(): OPTIONS is not in the OpenAPI document.
      const res = await serviceFetch(path, { method: 'OPTIONS' });
      expect(res.status, template).toBe(204);
      expect(res.headers.get('allow'), template).toBe(allowHeader(methods));
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('has a fixture for every contract and a contract for every fixture', async () => {
    const { ROUTE_FIXTURES, routeKey } = await import('../support/route-fixtures');
    expect(Object.keys(ROUTE_FIXTURES).sort()).toEqual(v1Contracts().map(routeKey).sort());
  });
});
