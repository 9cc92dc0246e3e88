import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../app/v1/route-table';
import { v1Contracts } from '../../app/v1/contracts';
import { defineContract, OPERATION_TAGS } from '../../lib/http/contract';
import { defineRoute } from '../../lib/http/define-route';
import { createRouter } from '../../lib/http/router';
import { z } from 'zod';

describe('the route table (generated from the route files)', () => {
  it('routes every contract at the place of its file', () => {
    // createRouter throws when a file's place and its contract's path or method disagree.
    const routes = createRouter(ROUTE_TABLE).routes();
    expect(routes.length).toBeGreaterThan(60);
    expect([...routes].sort()).toEqual(v1Contracts().map((c) => `${c.method} ${c.path}`).sort());
  });

  it('refuses a route file whose contract names another path or method', () => {
    const contract = defineContract({
      operationId: 'getThing',
      method: 'GET',
      path: '/v1/things/{thingId}',
      summary: 'A thing',
      tags: ['Service'],
      auth: 'anonymous',
      params: z.strictObject({ thingId: z.string() }),
      success: { status: 200, description: 'The thing', schema: z.object({}) },
      errors: [],
    });
    const GET = defineRoute(contract, { handle: async () => ({ data: {} }) });
    expect(() => createRouter({ '/v1/things/{thingId}': { GET } })).not.toThrow();
    expect(() => createRouter({ '/v1/thing/{thingId}': { GET } })).toThrow(/the file's place and its contract must agree/);
    expect(() => createRouter({ '/v1/things/{thingId}': { POST: GET } })).toThrow(/exports POST for GET/);
  });

  it('places every operation in a section of the API reference', () => {
    for (const contract of v1Contracts()) expect(OPERATION_TAGS).toContain(contract.tags[0]);
  });
});
