import type { Prisma } from '../db/generated/client';
import type { DeliveryView } from './schemas';

export const deliverySelect = {
  id: true,
  endpointId: true,
  eventId: true,
  eventType: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  replayOfId: true,
  canceledAt: true,
  createdAt: true,
  attempts: {
    orderBy: { number: 'asc' },
    select: { number: true, startedAt: true, latencyMs: true, responseStatus: true, responseExcerpt: true, requestHeaders: true, responseHeaders: true, error: true },
  },
} satisfies Prisma.WebhookDeliverySelect;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliverySelect }>;

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
