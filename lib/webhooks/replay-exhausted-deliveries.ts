import { withTransaction, type VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { requireEndpointReceiving } from './require-endpoint-receiving';
import type { AuthorizedEndpoint } from './require-endpoint';
import type { BulkReplayResult } from './schemas';

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
    const [{ matched }] = await sqlRows<{ matched: number }>(tx.db, `SELECT count(*)::int AS matched FROM (${WAITING_SQL}) w`, [endpoint.id, input.since]);
    if (input.dryRun || matched === 0) return { matched, replayed: 0, deliveryIds: [] };
    const rows = await sqlRows<{ id: string }>(
      tx.db,
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, replay_of_id, created_at, updated_at)
       SELECT gen_random_uuid(), w.endpoint_id, w.event_id, w.event_type, 'pending', 0, $3::timestamptz, w.id, $3::timestamptz, $3::timestamptz
         FROM (${WAITING_SQL} ORDER BY d.created_at, d.id LIMIT $4::int) w
       RETURNING id::text`,
      [endpoint.id, input.since, now, MAX_BULK_REPLAY],
    );
    return { matched, replayed: rows.length, deliveryIds: rows.map((r) => r.id) };
  });
}

const WAITING_SQL = `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.created_at
  FROM webhook_deliveries d
  WHERE d.endpoint_id = $1::uuid AND d.status IN ('exhausted', 'canceled') AND d.created_at >= $2::timestamptz
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.replay_of_id = d.id AND r.status IN ('pending', 'succeeded'))`;
