import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { toEndpointView } from './endpoint-view';
import { requireEndpoint } from './require-endpoint';
import { markEndpointDeleted } from './store';
import { withEndpointLocked } from './with-endpoint-locked';

/**
 * DELETE: the endpoint stops receiving at once; its delivery history is kept, and its pending
 * deliveries are canceled in the same transaction.
 */
export async function deleteEndpoint(ctx: VerbContext<SessionPrincipal>, { endpointId }: { endpointId: string }) {
  const { now } = ctx;
  return withEndpointLocked(ctx, endpointId, async (tx) => {
    await requireEndpoint(tx, { endpointId });
    const row = await markEndpointDeleted(tx.db, endpointId, now);
    await cancelDeliveriesOfInactiveEndpoint(tx, { endpointId });
    return toEndpointView(row, now);
  });
}
