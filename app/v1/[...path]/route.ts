import { z } from 'zod';
import { ServiceError } from '@/lib/errors/service-error';
import { defineContract } from '@/lib/http/contract';
import { defineRoute } from '@/lib/http/define-route';

// Unknown /v1 paths answer in the API's envelope instead of Next's HTML 404 page; under
// /v1/accounts, in the account surface's error shape.
const contract = (surface: 'standard' | 'account') =>
  defineContract({
    method: 'GET',
    path: '/v1/{path}',
    summary: 'Any path that is not a route',
    tags: [],
    auth: 'anonymous',
    surface,
    success: { status: 404, description: 'Never succeeds.', schema: z.never() },
    errors: ['not_found'],
  });

const answer = async ({ request }: { request: Request }): Promise<never> => {
  throw new ServiceError('not_found', `No route ${request.method} ${new URL(request.url).pathname}.`);
};
const standard = defineRoute(contract('standard'), answer);
const account = defineRoute(contract('account'), answer);

const notFound: typeof standard = (request, context) =>
  (new URL(request.url).pathname.startsWith('/v1/accounts') ? account : standard)(request, context);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
