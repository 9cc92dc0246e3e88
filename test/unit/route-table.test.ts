import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../app/v1/route-table';
import { contracts } from '../../app/v1/contracts';
import { createRouter } from '../../lib/http/router';
// @ts-expect-error: a plain .mjs script without types
import { routeTableSource } from '../../scripts/route-table.mjs';

describe('the route table', () => {
  it('is what the route files make (npm run routes writes it; the build checks it too)', () => {
    const written = readFileSync(path.resolve(import.meta.dirname, '../../app/v1/route-table.ts'), 'utf8');
    expect(written).toBe(routeTableSource());
  });

  it('gives the router every contract of the OpenAPI document, each at the place of its file', () => {
    // createRouter throws when a file's place and its contract's path or method disagree.
    const routes = createRouter(ROUTE_TABLE).routes();
    expect([...routes].sort()).toEqual(contracts.filter((c) => c.path.startsWith('/v1')).map((c) => `${c.method} ${c.path}`).sort());
  });
});
