import { listBusinesses } from '@/lib/businesses/list-businesses';
import { defineRoute } from '@/lib/http/define-route';
import { listBusinessesContract } from './contract';

export const GET = defineRoute(listBusinessesContract, async (ctx) => ({
  data: { businesses: await listBusinesses(ctx) },
}));
