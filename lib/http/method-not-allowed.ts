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

/**
 * Handlers for the methods a route does not have: 405 with an `Allow` header.
 * A route file exports them beside its own: `export const { GET, PUT } = methodsNotAllowed(['POST'])`.
 */
export function methodsNotAllowed<const A extends HttpMethod>(allowed: A[]) {
  const allow = allowed.join(', ');
  const handler = refusingRoute('method_not_allowed', 405, 'A method the route does not have', (request) => {
    throw new ServiceError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { headers: { allow } });
  });
  const others = METHODS.filter((m) => !(allowed as HttpMethod[]).includes(m));
  return Object.fromEntries(others.map((m) => [m, handler])) as Record<Exclude<HttpMethod, A>, typeof handler>;
}
