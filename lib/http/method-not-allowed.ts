import { z } from 'zod';
import { ServiceError } from '../errors/service-error';
import { defineContract, type HttpMethod } from './contract';
import { defineRoute } from './define-route';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const contract = (surface: 'standard' | 'account') =>
  defineContract({
    method: 'GET',
    path: '/v1/{path}',
    summary: 'A method the route does not have',
    tags: [],
    auth: 'anonymous',
    surface,
    success: { status: 405, description: 'Never succeeds.', schema: z.never() },
    errors: ['method_not_allowed'],
  });

/**
 * Handlers for the methods a route does not have, so that even a wrong method is answered in
 * the API's envelope with an `x-request-id` (Next's own 405 has neither) and an `Allow` header.
 * A route file exports them beside its own: `export const { GET, PUT } = methodsNotAllowed(['POST'])`.
 */
export function methodsNotAllowed<const A extends HttpMethod>(allowed: A[]) {
  const allow = allowed.join(', ');
  const answer = async ({ request }: { request: Request }): Promise<never> => {
    throw new ServiceError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { headers: { allow } });
  };
  const standard = defineRoute(contract('standard'), answer);
  const account = defineRoute(contract('account'), answer);
  const handler: typeof standard = (request, context) =>
    (new URL(request.url).pathname.startsWith('/v1/accounts') ? account : standard)(request, context);
  const others = METHODS.filter((m) => !(allowed as HttpMethod[]).includes(m));
  return Object.fromEntries(others.map((m) => [m, handler])) as Record<Exclude<HttpMethod, A>, typeof handler>;
}
