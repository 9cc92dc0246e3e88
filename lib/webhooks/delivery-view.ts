import type { DeliveryView } from './schemas';
import type { DeliveryRow } from './store';

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    ...row,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    attempts: row.attempts.map((a) => ({
      ...a,
      startedAt: a.startedAt.toISOString(),
      // Written by recordAttempts as name -> value objects (older attempts have none).
      requestHeaders: a.requestHeaders as Record<string, string> | null,
      responseHeaders: a.responseHeaders as Record<string, string> | null,
    })),
  };
}
