import type { Db } from '../db/client';
import { sqlRows } from '../db/sql';
import { fanOutSql } from '../events/record-event';

// Writers fan their events out as they write them (recordEvent); this catches any event
// written without its deliveries (by an older version of the service during a rolling update).
const DISPATCH_SQL = `WITH due AS (
     SELECT id, type, environment_id FROM outbox_events
     WHERE dispatched_at IS NULL ORDER BY seq LIMIT $2::int FOR UPDATE SKIP LOCKED
   ), fanned_out AS (
     ${fanOutSql('due', '$1::timestamptz')}
   ), marked AS (
     UPDATE outbox_events o SET dispatched_at = $1::timestamptz FROM due WHERE o.id = due.id RETURNING 1
   )
   SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM fanned_out)::int AS deliveries`;

/**
 * Fans outbox events out into deliveries: one per enabled endpoint of the event's environment
 * whose filter accepts the type. One statement: events are claimed with SKIP LOCKED (several
 * workers never dispatch one event twice), in outbox order, and marked with their deliveries.
 */
export async function dispatchOutboxEvents(db: Db, now: Date, limit = 500): Promise<{ events: number; deliveries: number }> {
  const [counts] = await sqlRows<{ events: number; deliveries: number }>(db, DISPATCH_SQL, [now, limit]);
  return counts;
}
