import type { VerbContext } from '../context/verb-context';
import { fanOutUndispatchedEvents } from './store';

/**
 * Fans outbox events out into deliveries: one per enabled endpoint of the event's environment
 * whose filter accepts the type. One statement, by one worker at a time (another finds it
 * busy and dispatches nothing this time): events in outbox order, marked with their deliveries.
 * Writers fan their events out as they write them (recordEvent); this catches any event
 * written without its deliveries (by an older version of the service during a rolling update).
 */
export async function dispatchOutboxEvents(
  { db, now }: VerbContext,
  { limit = 500 }: { limit?: number } = {},
): Promise<{ events: number; deliveries: number }> {
  return fanOutUndispatchedEvents(db, now, limit);
}
