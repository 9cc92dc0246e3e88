import { withTransaction, type VerbContext } from '../context/verb-context';
import { deliverySelect, toDeliveryView } from './delivery-view';
import type { AuthorizedDelivery } from './require-delivery';
import { requireEndpointReceiving } from './require-endpoint-receiving';

/**
 * POST /v1/webhook-deliveries/{id}/replay: a new pending delivery of the same event to the same
 * endpoint, linked to the original; the original and its attempts stay as they were. A delivery
 * whose endpoint is deleted cannot be replayed (there is nowhere to send it), nor one whose endpoint is disabled.
 */
export async function replayDelivery(ctx: VerbContext, { delivery: original }: { delivery: AuthorizedDelivery }) {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    await requireEndpointReceiving(tx, { endpointId: original.endpointId, replayOf: original.id });
    const replay = await tx.db.webhookDelivery.create({
      data: {
        endpointId: original.endpointId,
        eventId: original.eventId,
        eventType: original.eventType,
        replayOfId: original.id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      },
      select: deliverySelect,
    });
    return toDeliveryView(replay);
  });
}
