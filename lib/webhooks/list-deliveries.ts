import type { VerbContext } from '../context/verb-context';
import { toDeliveryView } from './delivery-view';
import { listDeliveriesOfWorkspaces, type DeliveriesQuery } from './store';

/**
 * GET /v1/webhook-deliveries: newest first, filtered, keyset-paginated by (createdAt, id), in the
 * workspaces where the person manages webhooks (found by the route).
 */
export async function listDeliveries({ db }: VerbContext, { workspaceIds, query }: { workspaceIds: string[]; query: DeliveriesQuery }) {
  const { page, nextCursor } = await listDeliveriesOfWorkspaces(db, workspaceIds, query);
  return { deliveries: page.map(toDeliveryView), nextCursor };
}
