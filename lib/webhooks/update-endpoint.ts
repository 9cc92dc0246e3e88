import type { VerbContext } from '../context/verb-context';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { toEndpointView } from './endpoint-view';
import { saveEndpointChanges, type EndpointChanges } from './store';
import { withEndpointLocked } from './with-endpoint-locked';

/**
 * PATCH (the route has found the endpoint with requireEndpoint): url, event types, description,
 * or enabled/disabled. A disabled endpoint receives nothing: disabling it cancels its pending
 * deliveries in the same transaction (they can be replayed once it is enabled again).
 */
export async function updateEndpoint(ctx: VerbContext, { endpointId, changes }: { endpointId: string; changes: EndpointChanges }) {
  const { now } = ctx;
  if (changes.status !== 'disabled') return toEndpointView(await saveEndpointChanges(ctx.db, endpointId, changes, now), now);
  return withEndpointLocked(ctx, endpointId, async (tx) => {
    const row = await saveEndpointChanges(tx.db, endpointId, changes, now);
    await cancelDeliveriesOfInactiveEndpoint(tx, { endpointId });
    return toEndpointView(row, now);
  });
}
