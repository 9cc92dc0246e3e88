import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { listDeliveries } from '@/lib/webhooks/list-deliveries';
import { listDeliveriesContract } from '../webhook-endpoints/contract';

export const GET = defineRoute(listDeliveriesContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'webhooks:manage'),
  handle: async (ctx) => ({ data: await listDeliveries(ctx, { workspaceIds: ctx.access, query: ctx.query }) }),
});
