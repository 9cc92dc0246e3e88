import { ServiceError } from '@/lib/errors/service-error';
import { refusingRoute } from '@/lib/http/method-not-allowed';

// Unknown /v1 paths (and /v1 itself) answer in the API's envelope instead of Next's HTML 404 page.
const notFound = refusingRoute('not_found', 404, 'Any path that is not a route', (request) => {
  throw new ServiceError('not_found', `No route ${request.method} ${new URL(request.url).pathname}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
