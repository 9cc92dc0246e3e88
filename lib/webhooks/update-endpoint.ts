import type { VerbContext } from '../context/verb-context';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { endpointSelect, toEndpointView } from './endpoint-view';
import { withEndpointLocked } from './with-endpoint-locked';

/**
 * PATCH (the route has found the endpoint with requireEndpoint): url, event types, description,
 * or enabled/disabled. A disabled endpoint receives nothing: disabling it cancels its pending
 * deliveries in the same transaction (they can be replayed once it is enabled again).
 */
export async function updateEndpoint(
  ctx: VerbContext,
  {
    endpointId,
    changes,
  }: { endpointId: string; changes: { url?: string; eventTypes?: string[]; description?: string | null; status?: 'enabled' | 'disabled' } },
) {
  const { now } = ctx;
  const update = ({ db }: VerbContext) =>
    db.webhookEndpoint.update({ where: { id: endpointId }, data: { ...changes, updatedAt: now }, select: endpointSelect });
  if (changes.status !== 'disabled') return toEndpointView(await update(ctx), now);
  return withEndpointLocked(ctx, endpointId, async (tx) => {
    const row = await update(tx);
    await cancelDeliveriesOfInactiveEndpoint(tx, { endpointId });
    return toEndpointView(row, now);
  });
}
