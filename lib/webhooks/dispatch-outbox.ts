import type { Db } from '../db/client';
import { sqlRows } from '../db/sql';

/**
 * Fans outbox events out into deliveries: one per enabled endpoint of the event's environment
 * whose filter accepts the type. One statement: events are claimed with SKIP LOCKED (several
 * workers never dispatch one event twice), in outbox order, and marked with their deliveries.
 */
export async function dispatchOutboxEvents(db: Db, now: Date, limit = 500): Promise<{ events: number; deliveries: number }> {
  const [counts] = await sqlRows<{ events: number; deliveries: number }>(
    db,
    `WITH due AS (
       SELECT id, type, environment_id FROM outbox_events
       WHERE dispatched_at IS NULL ORDER BY seq LIMIT $2::int FOR UPDATE SKIP LOCKED
     ), fanned_out AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), w.id, due.id, due.type, $1::timestamptz, $1::timestamptz, $1::timestamptz
       FROM due JOIN webhook_endpoints w ON w.environment_id = due.environment_id
       WHERE w.status = 'enabled' AND w.deleted_at IS NULL
         AND (cardinality(w.event_types) = 0 OR due.type = ANY (w.event_types))
       RETURNING 1
     ), marked AS (
       UPDATE outbox_events o SET dispatched_at = $1::timestamptz FROM due WHERE o.id = due.id RETURNING 1
     )
     SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM fanned_out)::int AS deliveries`,
    [now, limit],
  );
  return counts;
}
