import { defineRoute } from '@/lib/http/define-route';
import { listDeliveries } from '@/lib/webhooks/manage-deliveries';
import { listDeliveriesContract } from '../webhook-endpoints/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listDeliveriesContract, async ({ db, principal, query }) => ({
  data: await listDeliveries(db, principal, query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
