// The routes scripts/serve.mjs answers itself, without Next.js: the quote routes, where a
// request's CPU is the service's throughput. Next's routing, its Request and response streaming
// cost more CPU than the whole quote (docs/performance.md: 1.2–1.5 → 0.64 ms of server CPU per
// POST /v1/quotes). The handlers are the same route modules Next serves (its build of them
// answers everything else: a query string, another method, HEAD, OPTIONS); this file is bundled
// by scripts/build-direct-routes.mjs into .next/direct-routes.mjs. Module state shared between
// the two copies (database pools, the request log writer, the signer) lives on globalThis.
import { POST as publicQuotes } from './v1/public_quotes/route';
import { POST as apiQuotes } from './v1/quotes/route';

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** By exact path, for POST only. */
export const DIRECT_POST_ROUTES: Record<string, RouteHandler> = {
  '/v1/quotes': apiQuotes,
  '/v1/public_quotes': publicQuotes,
};
