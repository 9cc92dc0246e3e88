import type { SessionPrincipal } from '../auth/principal';
import type { Db } from '../db/client';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { endpointSelect, toEndpointView } from './endpoint-view';
import { requireEndpoint } from './require-endpoint';
import { withEndpointLocked } from './with-endpoint-locked';

/**
 * DELETE: the endpoint stops receiving at once; its delivery history is kept, and its pending
 * deliveries are canceled in the same transaction.
 */
export async function deleteEndpoint(db: Db, principal: SessionPrincipal, endpointId: string, now: Date) {
  return withEndpointLocked(db, endpointId, async (tx) => {
    await requireEndpoint(tx, principal, endpointId);
    const row = await tx.webhookEndpoint.update({
      where: { id: endpointId },
      data: { deletedAt: now, status: 'disabled', updatedAt: now },
      select: endpointSelect,
    });
    await cancelDeliveriesOfInactiveEndpoint(tx, endpointId, now);
    return toEndpointView(row, now);
  });
}
