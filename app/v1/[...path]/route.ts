import { z } from 'zod';
import { ServiceError } from '@/lib/errors/service-error';
import { defineContract } from '@/lib/http/contract';
import { defineRoute } from '@/lib/http/define-route';

// Unknown /v1 paths answer in the API's envelope instead of Next's HTML 404 page.
const unknownRouteContract = defineContract({
  method: 'GET',
  path: '/v1/{path}',
  summary: 'Any path that is not a route',
  tags: [],
  auth: 'anonymous',
  success: { status: 404, description: 'Never succeeds.', schema: z.never() },
  errors: ['not_found'],
});

const notFound = defineRoute(unknownRouteContract, async ({ request }) => {
  throw new ServiceError('not_found', `No route ${request.method} ${new URL(request.url).pathname}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
