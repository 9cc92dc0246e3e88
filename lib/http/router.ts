import { z } from 'zod';
import { ServiceError, type ErrorCode } from '../errors/service-error';
import { defineContract, type HttpMethod, type RouteContract } from './contract';
import { defineRoute, type RouteHandler } from './define-route';
import { logAsSent } from './steps/request-log';

/**
 * Every /v1 request is answered here, in every process that serves the API (scripts/serve.mjs,
 * `npm run dev`, the in-process test harness): the route table (app/v1/route-table.ts, one
 * entry per app/v1/**\/route.ts) matched by path template and method. What a framework would
 * answer outside the API's envelope is answered here inside it, with an `x-request-id`: 404 for
 * an unknown path, 405 with `allow` for a method the path does not have, OPTIONS (204 and
 * `allow`), HEAD (GET without its body), 308 for a trailing slash, 400 for a malformed
 * percent-encoding.
 */

/** A route file's exports: its handlers by method, each made by defineRoute (which names its contract). */
export type RouteModule = Partial<Record<HttpMethod, RouteHandler>> & Record<string, unknown>;

/** A request as the server's edge received it (scripts/http-edge.mjs), which it could not hand on as it came. */
export type EdgeRequest = {
  /** As sent: any token, even one the API has not (TRACE) or none at all (an unreadable request line). */
  method: string;
  /** The request target as sent ('' when it could not be read). */
  target: string;
  /** The headers that could be read (user agent, the caller's address), if any. */
  headers?: Headers;
};

/** Why the edge refuses it. */
export type EdgeRefusal = {
  code: 'invalid_request' | 'method_not_allowed' | 'request_timeout' | 'headers_too_large' | 'internal_error';
  message: string;
  headers?: Record<string, string>;
};

export type Router = {
  handle(request: Request): Promise<Response>;
  /**
   * The edge's refusal of a request it could not hand on (a malformed request line or Host, a
   * method the API has not, headers too large or too slow, a failure of its own): answered by a
   * route of the wrapper like any other, so in the envelope of the target's surface (the account
   * surface's under /v1/accounts), with its request id, and logged once.
   */
  refuse(sent: EdgeRequest, refusal: EdgeRefusal): Promise<Response>;
  /** Every route, `METHOD /path/template`, in table order: for tests and the OpenAPI check. */
  routes(): string[];
};

type Node = { literals: Map<string, Node>; param: { name: string; node: Node } | null; handlers: Map<HttpMethod, RouteHandler> };
const newNode = (): Node => ({ literals: new Map(), param: null, handlers: new Map() });

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const segmentsOf = (template: string) => template.split('/').filter(Boolean);

/** The contracts of a route table's handlers, in the table's order: what the OpenAPI document is built from. */
export function contractsOf(table: Record<string, RouteModule>): RouteContract[] {
  return Object.values(table).flatMap((module) => METHODS.flatMap((method) => (module[method] ? [module[method].contract] : [])));
}

/** Builds the router from the route table: `{ '/v1/path/{param}': module }`. Throws on a table that disagrees with its modules. */
export function createRouter(table: Record<string, RouteModule>): Router {
  const root = newNode();
  const listed: string[] = [];
  for (const [template, module] of Object.entries(table)) {
    let node = root;
    for (const segment of segmentsOf(template)) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param) {
        if (node.param && node.param.name !== param) throw new Error(`${template}: {${param}} where another route has {${node.param.name}}`);
        node.param ??= { name: param, node: newNode() };
        node = node.param.node;
      } else {
        if (!node.literals.has(segment)) node.literals.set(segment, newNode());
        node = node.literals.get(segment)!;
      }
    }
    for (const method of METHODS) {
      const handler = module[method];
      if (!handler) continue;
      if (handler.contract.method !== method || handler.contract.path !== template) {
        throw new Error(`${template} exports ${method} for ${handler.contract.method} ${handler.contract.path}: the file's place and its contract must agree`);
      }
      node.handlers.set(method, handler);
      listed.push(`${method} ${template}`);
    }
  }

  return {
    routes: () => [...listed],
    refuse: refuseAtEdge,
    async handle(request) {
      const url = new URL(request.url);
      let segments: string[];
      try {
        segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      } catch {
        return refusals.malformedPath(request);
      }
      if (url.pathname.length > 1 && url.pathname.endsWith('/')) return trailingSlashRedirect(request);
      const found = match(root, segments, {});
      if (!found || found.node.handlers.size === 0) return refusals.notFound(request);
      const { node, params } = found;
      const context = { params: Promise.resolve(params) };
      const method = request.method.toUpperCase();
      if (method === 'OPTIONS') return optionsAnswer(allowHeader([...node.handlers.keys()]))(request, context);
      if (method === 'HEAD' && node.handlers.has('GET')) {
        const answer = await node.handlers.get('GET')!(request, context);
        // A body never read is cancelled, so that what it holds (an event stream's place) is freed.
        await answer.body?.cancel();
        return new Response(null, { status: answer.status, headers: answer.headers });
      }
      const handler = node.handlers.get(method as HttpMethod);
      if (!handler) return refusals.methodNotAllowed(request, allowHeader([...node.handlers.keys()]));
      return handler(request, context);
    },
  };
}

/** Literal segments before parameters (`/v1/accounts/current` before `/v1/accounts/{id}`), backtracking. */
function match(node: Node, segments: string[], params: Record<string, string>): { node: Node; params: Record<string, string> } | null {
  if (segments.length === 0) return { node, params };
  const [first, ...rest] = segments;
  const literal = node.literals.get(first);
  const viaLiteral = literal ? match(literal, rest, params) : null;
  if (viaLiteral && viaLiteral.node.handlers.size > 0) return viaLiteral;
  if (node.param) {
    const viaParam = match(node.param.node, rest, { ...params, [node.param.name]: first });
    if (viaParam && viaParam.node.handlers.size > 0) return viaParam;
  }
  return viaLiteral;
}

/** The Allow header of a path: its methods, HEAD wherever GET is, and OPTIONS. */
export function allowHeader(allowed: readonly HttpMethod[]): string {
  const methods = new Set<string>([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => methods.has(m)).join(', ');
}

/** 308 to the path without its trailing slash: an answer like any other, logged with its request id. */
const trailingSlashRoute = defineRoute(
  defineContract({
    operationId: 'trailing-slash', // the router's own answer: not in the OpenAPI document
    method: 'GET',
    path: '/v1/{path}',
    summary: 'A path with a trailing slash',
    tags: [],
    auth: 'anonymous',
    success: { status: 308, description: 'No body; `Location` is the path without its trailing slash.', schema: z.never() },
    errors: [],
  }),
  async ({ request }) => {
    const url = new URL(request.url);
    return { response: new Response(null, { status: 308, headers: { location: `${url.pathname.replace(/\/+$/, '')}${url.search}` } }) };
  },
);
const trailingSlashRedirect = (request: Request) => trailingSlashRoute(request, { params: Promise.resolve({}) });

/** The refusal the router chose for a request, read by the refusing handler it hands the request to. */
const refusalOf = new WeakMap<Request, ServiceError>();

/**
 * A handler that only ever refuses, in the API's envelope, logged like any request: under
 * /v1/accounts in the account surface's error shape, elsewhere in the standard one.
 */
function refusingRoute(code: ErrorCode, status: number, summary: string) {
  const contract = (surface: 'standard' | 'account'): RouteContract =>
    defineContract({
      operationId: 'refused', // the router's own answers (404, 405): not in the OpenAPI document
      method: 'GET',
      path: '/v1/{path}',
      summary,
      tags: [],
      auth: 'anonymous',
      surface,
      success: { status, description: 'Never succeeds.', schema: z.never() },
      errors: [code],
    });
  const refuse = async ({ request }: { request: Request }): Promise<never> => {
    throw refusalOf.get(request)!;
  };
  const standard = defineRoute(contract('standard'), refuse);
  const account = defineRoute(contract('account'), refuse);
  return (request: Request, refusal: ServiceError) => {
    refusalOf.set(request, refusal);
    const surface = new URL(request.url).pathname.startsWith('/v1/accounts') ? account : standard;
    return surface(request, { params: Promise.resolve({}) });
  };
}

const notFoundRoute = refusingRoute('not_found', 404, 'Any path that is not a route');
const notAllowedRoute = refusingRoute('method_not_allowed', 405, 'A method the path does not have');
const malformedRoute = refusingRoute('invalid_request', 400, 'A path with a malformed percent-encoding');

const edgeRoutes = {
  invalid_request: malformedRoute,
  method_not_allowed: notAllowedRoute,
  request_timeout: refusingRoute('request_timeout', 408, 'A request not received in time'),
  headers_too_large: refusingRoute('headers_too_large', 431, 'Request headers over the limit'),
  internal_error: refusingRoute('internal_error', 500, 'A request the edge could not hand to its route'),
} satisfies Record<EdgeRefusal['code'], ReturnType<typeof refusingRoute>>;

/** Methods a web Request can carry for a refusal; any other is logged as sent (logAsSent). */
const REQUEST_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

async function refuseAtEdge(sent: EdgeRequest, refusal: EdgeRefusal): Promise<Response> {
  const target = sent.target.startsWith('/') ? sent.target : '/';
  let url: URL;
  try {
    url = new URL(`http://edge.invalid${target}`);
  } catch {
    url = new URL('http://edge.invalid/');
  }
  const request = new Request(url, { method: REQUEST_METHODS.has(sent.method) ? sent.method : 'GET', headers: sent.headers });
  // The row says what was sent, odd method and unreadable target included.
  logAsSent(request, { method: sent.method, path: sent.target.split('?', 1)[0] });
  return edgeRoutes[refusal.code](request, new ServiceError(refusal.code, refusal.message, { headers: refusal.headers }));
}

const refusals = {
  notFound: (request: Request) => notFoundRoute(request, new ServiceError('not_found', `No route ${request.method} ${new URL(request.url).pathname}.`)),
  methodNotAllowed: (request: Request, allow: string) =>
    notAllowedRoute(request, new ServiceError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { headers: { allow } })),
  malformedPath: (request: Request) =>
    malformedRoute(request, new ServiceError('invalid_request', 'The path is not valid: it has a malformed percent-encoding.')),
};

/** OPTIONS: which methods the path has. No CORS: the API is called from servers, not browsers. */
const optionsAnswers = new Map<string, RouteHandler>();
function optionsAnswer(allow: string): RouteHandler {
  let handler = optionsAnswers.get(allow);
  if (!handler) {
    handler = defineRoute(
      defineContract({
        operationId: 'options', // the router's own answer: not in the OpenAPI document
        method: 'GET',
        path: '/v1/{path}',
        summary: 'The methods of a path',
        tags: [],
        auth: 'anonymous',
        success: { status: 204, description: 'No body; `Allow` lists the methods.', schema: z.never() },
        errors: [],
      }),
      async () => ({ response: new Response(null, { status: 204, headers: { allow } }) }),
    );
    optionsAnswers.set(allow, handler);
  }
  return handler;
}
