import { listBusinesses } from '@/lib/businesses/list-businesses';
import { defineRoute } from '@/lib/http/define-route';
import { listBusinessesContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listBusinessesContract, async (ctx) => ({
  data: { businesses: await listBusinesses(ctx) },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
