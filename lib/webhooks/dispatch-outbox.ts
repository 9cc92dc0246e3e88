import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';
import { fanOutSql } from '../events/store';

/** The advisory lock key of the outbox dispatch (any constant of ours). */
export const DISPATCH_LOCK = 7_260_318_441;

// Writers fan their events out as they write them (recordEvent); this catches any event
// written without its deliveries (by an older version of the service during a rolling update).
// One dispatcher at a time (a transaction-level advisory lock, tried, not waited for): two
// scanning at once with SKIP LOCKED would split the events between them out of order, and the
// later-numbered half could be fanned out, committed and sent before the earlier one.
const DISPATCH_SQL = `WITH turn AS (
     SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}) AS ours
   ), due AS (
     SELECT id, type, environment_id FROM outbox_events
     WHERE dispatched_at IS NULL AND (SELECT ours FROM turn) ORDER BY seq LIMIT $2::int FOR UPDATE SKIP LOCKED
   ), fanned_out AS (
     ${fanOutSql('due', '$1::timestamptz')}
   ), marked AS (
     UPDATE outbox_events o SET dispatched_at = $1::timestamptz FROM due WHERE o.id = due.id RETURNING 1
   )
   SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM fanned_out)::int AS deliveries`;

/**
 * Fans outbox events out into deliveries: one per enabled endpoint of the event's environment
 * whose filter accepts the type. One statement, by one worker at a time (another finds it
 * busy and dispatches nothing this time): events in outbox order, marked with their deliveries.
 */
export async function dispatchOutboxEvents(
  { db, now }: VerbContext,
  { limit = 500 }: { limit?: number } = {},
): Promise<{ events: number; deliveries: number }> {
  const [counts] = await sqlRows<{ events: number; deliveries: number }>(db, DISPATCH_SQL, [now, limit]);
  return counts;
}
