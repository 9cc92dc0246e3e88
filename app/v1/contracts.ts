import type { RouteContract } from '@/lib/http/contract';
import { contractsOf } from '@/lib/http/router';
import { ROUTE_TABLE } from './route-table';

let contracts: RouteContract[] | undefined;

/**
 * Every /v1 contract, as the route files' handlers name them (app/v1/route-table.ts, generated):
 * the OpenAPI document, the SDK and the route tests are built from it. Read on first use, not at
 * load: the OpenAPI document's own route is one of those files.
 */
export function v1Contracts(): RouteContract[] {
  return (contracts ??= contractsOf(ROUTE_TABLE));
}
