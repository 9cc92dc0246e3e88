import { randomUUID } from 'node:crypto';
import { afterTimeIdCursor, timeIdPage } from '../http/cursors';
import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { ServiceError } from '../errors/service-error';
import type { AuthorizedEndpoint } from './manage-endpoints';
import type { DeliveryView } from './schemas';

const deliverySelect = {
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

function toDeliveryView(row: DeliveryRow): DeliveryView {
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


/**
 * POST /v1/webhook-endpoints/{id}/test-events: a `webhook.test` event delivered to that endpoint
 * only (the route has found it with requireEndpoint).
 */
export async function sendTestEvent(db: Db, endpoint: AuthorizedEndpoint, now: Date) {
  return db.$transaction(async (tx) => {
    await requireEndpointReceiving(tx, endpoint.id);
    // Written already dispatched: the fan-out must not send it to the environment's other endpoints.
    const event = await tx.outboxEvent.create({
      data: {
        id: randomUUID(),
        type: 'webhook.test',
        workspaceId: endpoint.workspaceId,
        projectId: endpoint.projectId,
        environmentId: endpoint.environmentId,
        subjectId: endpoint.id,
        data: { endpointId: endpoint.id, environment: endpoint.environment.kind, message: 'This is a test event.' },
        createdAt: now,
        dispatchedAt: now,
      },
      select: { id: true },
    });
    const delivery = await tx.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: event.id, eventType: 'webhook.test', nextAttemptAt: now, createdAt: now, updatedAt: now },
      select: deliverySelect,
    });
    return toDeliveryView(delivery);
  });
}

/**
 * POST /v1/webhook-deliveries/{id}/replay: a new pending delivery of the same event to the same
 * endpoint, linked to the original; the original and its attempts stay as they were. A delivery
 * whose endpoint is deleted cannot be replayed (there is nowhere to send it), nor one whose endpoint is disabled.
 */
export async function replayDelivery(db: Db, original: AuthorizedDelivery, now: Date) {
  return db.$transaction(async (tx) => {
    await requireEndpointReceiving(tx, original.endpointId, original.id);
    const replay = await tx.webhookDelivery.create({
      data: {
        endpointId: original.endpointId,
        eventId: original.eventId,
        eventType: original.eventType,
        replayOfId: original.id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      },
      select: deliverySelect,
    });
    return toDeliveryView(replay);
  });
}

/**
 * Refuses to queue a delivery for an endpoint that would not receive it: a deleted one (404, or
 * 409 when a delivery of it is being replayed) or a disabled one (409). The endpoint is read
 * under KEY SHARE: that waits for a deletion or disabling in progress (it holds the row FOR
 * UPDATE) and then reads its outcome; one that starts later waits for this transaction and
 * cancels the delivery it writes. Either way none is left pending.
 */
export async function requireEndpointReceiving(tx: DbOrTx, endpointId: string, replayOf?: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ deleted: boolean; enabled: boolean }[]>`
    SELECT deleted_at IS NOT NULL AS deleted, status = 'enabled' AS enabled FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR KEY SHARE`;
  if (row.deleted && replayOf) throw new ServiceError('conflict', `Webhook delivery ${replayOf} cannot be replayed: its endpoint has been deleted.`);
  if (row.deleted) throw new ServiceError('not_found', `Webhook endpoint ${endpointId} does not exist.`);
  if (!row.enabled) throw new ServiceError('conflict', `Webhook endpoint ${endpointId} is disabled: enable it before sending it events.`);
}

/**
 * GET /v1/webhook-deliveries: newest first, filtered, keyset-paginated by (createdAt, id), in the
 * workspaces where the person manages webhooks (found by the route).
 */
export async function listDeliveries(
  db: DbOrTx,
  workspaceIds: string[],
  query: { endpointId?: string; eventId?: string; eventType?: string; status?: DeliveryView['status']; limit: number; cursor?: string },
) {
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpoint: { workspaceId: { in: workspaceIds } },
      endpointId: query.endpointId,
      eventId: query.eventId,
      eventType: query.eventType,
      status: query.status,
      ...afterTimeIdCursor(query.cursor),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: deliverySelect,
  });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { deliveries: page.map(toDeliveryView), nextCursor };
}

/** The delivery, if it exists and the person may manage webhooks in its workspace (404 / 403 otherwise). */
export async function requireDelivery(db: DbOrTx, principal: SessionPrincipal, deliveryId: string) {
  const delivery = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: { id: true, endpointId: true, eventId: true, eventType: true, endpoint: { select: { workspaceId: true } } },
  });
  const notFound = `Webhook delivery ${deliveryId} does not exist.`;
  if (!delivery) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, delivery.endpoint.workspaceId, 'webhooks:manage', notFound);
  return delivery;
}

export type AuthorizedDelivery = Awaited<ReturnType<typeof requireDelivery>>;

export async function getDelivery(db: DbOrTx, deliveryId: string) {
  return toDeliveryView(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: deliverySelect }));
}
