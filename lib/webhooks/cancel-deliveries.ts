import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';

/**
 * Cancels pending deliveries whose endpoint is disabled or deleted (deleting disables it too),
 * among the rows `due` selects (a query returning ids): `canceled` is terminal, and without a
 * next attempt the row leaves the due queue's index range. Rows are locked in id order, as
 * recording attempts does, so the two never deadlock.
 */
const cancelSql = (due: string) => `WITH due AS (${due}), canceled AS (
    UPDATE webhook_deliveries d SET status = 'canceled', canceled_at = $1::timestamptz, next_attempt_at = NULL,
      leased_until = NULL, lease_token = NULL, updated_at = $1::timestamptz
    FROM due WHERE d.id = due.id
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM canceled`;

// A delivery a sender holds is left to it: it hands back (and so cancels) what it has not sent,
// and records what it has (a send already in flight may well succeed); a crashed sender's lease
// runs out and the minute job cancels the rest.
const PENDING_OF_INACTIVE = `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
  WHERE d.status = 'pending' AND (w.status = 'disabled' OR w.deleted_at IS NOT NULL)
    AND (d.leased_until IS NULL OR d.leased_until < $1::timestamptz)`;

const CANCEL_OF_ENDPOINT_SQL = cancelSql(`${PENDING_OF_INACTIVE} AND d.endpoint_id = $2::uuid ORDER BY d.id FOR UPDATE OF d`);
// The sweep skips rows someone holds (an attempt being recorded): the next sweep takes them.
const CANCEL_ALL_SQL = cancelSql(`${PENDING_OF_INACTIVE} ORDER BY d.id FOR UPDATE OF d SKIP LOCKED`);

/**
 * Every pending delivery of a disabled or deleted endpoint becomes canceled. Disabling and
 * deleting an endpoint call it in their own transaction; the senders call it when a claimed
 * delivery's endpoint turns out disabled or deleted.
 */
export async function cancelDeliveriesOfInactiveEndpoint({ db, now }: VerbContext, { endpointId }: { endpointId: string }): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_OF_ENDPOINT_SQL, [now, endpointId]);
  return n;
}

/**
 * The minute job's backstop: a delivery can still be born pending for an endpoint disabled or
 * deleted at that moment (a fan-out that read the endpoint before the change committed), or by
 * an older version of the service. The claim never takes such a delivery; this gives it its final state.
 */
export async function cancelDeliveriesOfInactiveEndpoints({ db, now }: VerbContext): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_ALL_SQL, [now]);
  return n;
}
