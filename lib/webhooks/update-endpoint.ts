import type { Db, DbOrTx } from '../db/client';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { endpointSelect, toEndpointView } from './endpoint-view';
import { withEndpointLocked } from './with-endpoint-locked';

/**
 * PATCH (the route has found the endpoint with requireEndpoint): url, event types, description,
 * or enabled/disabled. A disabled endpoint receives nothing: disabling it cancels its pending
 * deliveries in the same transaction (they can be replayed once it is enabled again).
 */
export async function updateEndpoint(
  db: Db,
  endpointId: string,
  changes: { url?: string; eventTypes?: string[]; description?: string | null; status?: 'enabled' | 'disabled' },
  now: Date,
) {
  const update = (tx: DbOrTx) => tx.webhookEndpoint.update({ where: { id: endpointId }, data: { ...changes, updatedAt: now }, select: endpointSelect });
  if (changes.status !== 'disabled') return toEndpointView(await update(db), now);
  return withEndpointLocked(db, endpointId, async (tx) => {
    const row = await update(tx);
    await cancelDeliveriesOfInactiveEndpoint(tx, endpointId, now);
    return toEndpointView(row, now);
  });
}
