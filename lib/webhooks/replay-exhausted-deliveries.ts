import { withTransaction, type VerbContext } from '../context/verb-context';
import { requireEndpointReceiving } from './require-endpoint-receiving';
import type { AuthorizedEndpoint } from './require-endpoint';
import type { BulkReplayResult } from './schemas';
import { countReplayable, insertReplaysOfReplayable } from './store';

/** The most deliveries one bulk replay sends again; a larger backlog is replayed in turns. */
const MAX_BULK_REPLAY = 1_000;

/**
 * POST /v1/webhook-endpoints/{id}/replays: every exhausted or canceled delivery of the endpoint created since
 * `since` is replayed as POST /v1/webhook-deliveries/{id}/replay would (a new pending delivery
 * linked to the original), oldest first, up to MAX_BULK_REPLAY. A delivery that already has a
 * replay pending or delivered is left out, so running it twice sends nothing twice. `dryRun`
 * answers how many would be replayed, and replays none.
 */
export async function replayExhaustedDeliveries(
  ctx: VerbContext,
  { endpoint, ...input }: { endpoint: AuthorizedEndpoint; since: string; dryRun: boolean },
): Promise<BulkReplayResult> {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    await requireEndpointReceiving(tx, { endpointId: endpoint.id });
    const matched = await countReplayable(tx.db, endpoint.id, input.since);
    if (input.dryRun || matched === 0) return { matched, replayed: 0, deliveryIds: [] };
    const deliveryIds = await insertReplaysOfReplayable(tx.db, endpoint.id, input.since, now, MAX_BULK_REPLAY);
    return { matched, replayed: deliveryIds.length, deliveryIds };
  });
}
