import { withTransaction, type VerbContext } from '../context/verb-context';
import { toDeliveryView } from './delivery-view';
import type { AuthorizedDelivery } from './require-delivery';
import { requireEndpointReceiving } from './require-endpoint-receiving';
import { insertReplay } from './store';

/**
 * POST /v1/webhook-deliveries/{id}/replay: a new pending delivery of the same event to the same
 * endpoint, linked to the original; the original and its attempts stay as they were. A delivery
 * whose endpoint is deleted cannot be replayed (there is nowhere to send it), nor one whose endpoint is disabled.
 */
export async function replayDelivery(ctx: VerbContext, { delivery: original }: { delivery: AuthorizedDelivery }) {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    await requireEndpointReceiving(tx, { endpointId: original.endpointId, replayOf: original.id });
    return toDeliveryView(await insertReplay(tx.db, original, now));
  });
}
