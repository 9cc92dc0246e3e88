import type { Db } from '../db/client';

/**
 * Fans outbox events out into deliveries: one per enabled endpoint of the event's environment
 * whose filter accepts the type. Claimed with SKIP LOCKED, so several workers never dispatch
 * one event twice; events are taken in outbox order.
 */
export async function dispatchOutboxEvents(db: Db, now: Date, limit = 500): Promise<{ events: number; deliveries: number }> {
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; type: string; environment_id: string | null }[]>`
      SELECT id::text, type, environment_id::text FROM outbox_events
      WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const environmentIds = [...new Set(events.map((e) => e.environment_id).filter((id): id is string => id !== null))];
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { environmentId: { in: environmentIds }, status: 'enabled', deletedAt: null },
      select: { id: true, environmentId: true, eventTypes: true },
    });
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((e) => e.environmentId === event.environment_id && (e.eventTypes.length === 0 || e.eventTypes.includes(event.type)))
        .map((endpoint) => ({ endpointId: endpoint.id, eventId: event.id, eventType: event.type, nextAttemptAt: now, createdAt: now, updatedAt: now })),
    );
    if (deliveries.length > 0) await tx.webhookDelivery.createMany({ data: deliveries });
    await tx.outboxEvent.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { dispatchedAt: now } });
    return { events: events.length, deliveries: deliveries.length };
  });
}
