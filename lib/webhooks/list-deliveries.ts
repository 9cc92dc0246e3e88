import { afterTimeIdCursor, timeIdPage } from '../http/cursors';
import type { VerbContext } from '../context/verb-context';
import { deliverySelect, toDeliveryView } from './delivery-view';
import type { DeliveryView } from './schemas';

/**
 * GET /v1/webhook-deliveries: newest first, filtered, keyset-paginated by (createdAt, id), in the
 * workspaces where the person manages webhooks (found by the route).
 */
export async function listDeliveries(
  { db }: VerbContext,
  {
    workspaceIds,
    query,
  }: {
    workspaceIds: string[];
    query: { endpointId?: string; eventId?: string; eventType?: string; status?: DeliveryView['status']; limit: number; cursor?: string };
  },
) {
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpoint: { workspaceId: { in: workspaceIds } },
      endpointId: query.endpointId,
      eventId: query.eventId,
      eventType: query.eventType,
      status: query.status,
      ...afterTimeIdCursor(query.cursor),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: deliverySelect,
  });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { deliveries: page.map(toDeliveryView), nextCursor };
}
