import { z } from 'zod';
import { ServiceError, type ErrorCode } from '../errors/service-error';
import { defineContract, type HttpMethod } from './contract';
import { defineRoute } from './define-route';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A handler that only ever refuses, in the API's envelope with an `x-request-id` (Next's own
 * 404 and 405 have neither): under /v1/accounts in the account surface's error shape, elsewhere
 * in the standard one. `refuse` throws the ServiceError to answer with.
 */
export function refusingRoute(code: ErrorCode, status: number, summary: string, refuse: (request: Request) => never) {
  const contract = (surface: 'standard' | 'account') =>
    defineContract({
      method: 'GET',
      path: '/v1/{path}',
      summary,
      tags: [],
      auth: 'anonymous',
      surface,
      success: { status, description: 'Never succeeds.', schema: z.never() },
      errors: [code],
    });
  const answer = async ({ request }: { request: Request }): Promise<never> => refuse(request);
  const standard = defineRoute(contract('standard'), answer);
  const account = defineRoute(contract('account'), answer);
  const handler: typeof standard = (request, context) =>
    (new URL(request.url).pathname.startsWith('/v1/accounts') ? account : standard)(request, context);
  return handler;
}

/** The Allow header of a route: its methods, HEAD wherever GET is (Next answers it from GET), and OPTIONS. */
export function allowHeader(allowed: readonly HttpMethod[]): string {
  const methods = new Set<string>([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => methods.has(m)).join(', ');
}

/**
 * Handlers for the methods a route does not have (405 with an `Allow` header), and OPTIONS
 * (204 with the same header): Next's own OPTIONS would list every method this exports.
 * A route file exports them beside its own: `export const { GET, PUT, OPTIONS } = methodsNotAllowed(['POST'])`.
 */
export function methodsNotAllowed<const A extends HttpMethod>(allowed: A[]) {
  const allow = allowHeader(allowed);
  const handler = refusingRoute('method_not_allowed', 405, 'A method the route does not have', (request) => {
    throw new ServiceError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { headers: { allow } });
  });
  const others = METHODS.filter((m) => !(allowed as HttpMethod[]).includes(m));
  return {
    ...(Object.fromEntries(others.map((m) => [m, handler])) as Record<Exclude<HttpMethod, A>, typeof handler>),
    OPTIONS: optionsRoute(allow),
  };
}

/** OPTIONS: which methods the path has. No CORS: the API is called from servers, not browsers. */
function optionsRoute(allow: string) {
  return defineRoute(
    defineContract({
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
}
