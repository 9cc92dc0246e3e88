import type { Receiver } from '../../lib/testing/https-receiver';

/** The event ids a receiver got, in the order their requests reached it. */
export const arrivals = (receiver: Receiver) => receiver.received.map((r) => String(r.headers['service-event-id']));

/** Pairs of arrivals in the wrong order: 0 when every event came after those before it in the outbox. */
export function inversions(arrived: string[], outboxOrder: string[]): number {
  const position = new Map(outboxOrder.map((id, i) => [id, i]));
  let count = 0;
  for (let i = 0; i < arrived.length; i++) for (let j = i + 1; j < arrived.length; j++) if (position.get(arrived[i])! > position.get(arrived[j])!) count++;
  return count;
}
