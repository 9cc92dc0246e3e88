import type { Db, DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';

/**
 * Cancels pending deliveries whose endpoint is deleted, among the rows `due` selects (a query
 * returning ids): `canceled` is terminal, and without a next attempt the row leaves the due
 * queue's index range. Rows are locked in id order, as recording attempts does, so the two never deadlock.
 */
const cancelSql = (due: string) => `WITH due AS (${due}), canceled AS (
    UPDATE webhook_deliveries d SET status = 'canceled', canceled_at = $1::timestamptz, next_attempt_at = NULL,
      leased_until = NULL, updated_at = $1::timestamptz
    FROM due WHERE d.id = due.id
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM canceled`;

const PENDING_OF_DELETED = `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
  WHERE d.status = 'pending' AND w.deleted_at IS NOT NULL`;

const CANCEL_OF_ENDPOINT_SQL = cancelSql(`${PENDING_OF_DELETED} AND d.endpoint_id = $2::uuid ORDER BY d.id FOR UPDATE OF d`);
// The sweep skips rows someone holds (an attempt being recorded): the next sweep takes them.
const CANCEL_ALL_SQL = cancelSql(`${PENDING_OF_DELETED} ORDER BY d.id FOR UPDATE OF d SKIP LOCKED`);

/**
 * Every pending delivery of a deleted endpoint becomes canceled. Deleting an endpoint calls it
 * in its own transaction; the runner calls it when a claimed delivery's endpoint turns out deleted.
 */
export async function cancelDeliveriesOfDeletedEndpoint(db: DbOrTx, endpointId: string, now: Date): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_OF_ENDPOINT_SQL, [now, endpointId]);
  return n;
}

/**
 * The minute job's backstop: a delivery can still be born pending for an endpoint deleted at
 * that moment (a fan-out that read the endpoint before the deletion committed), or by an older
 * version of the service. The claim never takes such a delivery; this gives it its final state.
 */
export async function cancelDeliveriesOfDeletedEndpoints(db: Db, now: Date): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_ALL_SQL, [now]);
  return n;
}
