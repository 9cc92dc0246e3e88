import type { Delivery } from './types';

/**
 * While a shown delivery waits for an attempt due soon, refresh every 2 s so people see it
 * move; one waiting on a later retry (30 s to 2 h away) only needs an occasional look.
 */
export function refreshInterval(deliveries: Pick<Delivery, 'status' | 'nextAttemptAt'>[], now = Date.now()): number | false {
  const pending = deliveries.filter((d) => d.status === 'pending');
  if (pending.length === 0) return false;
  const dueSoon = pending.some((d) => !d.nextAttemptAt || Date.parse(d.nextAttemptAt) - now < 60_000);
  return dueSoon ? 2_000 : 15_000;
}
