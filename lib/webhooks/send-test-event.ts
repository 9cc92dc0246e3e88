import { randomUUID } from 'node:crypto';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { deliverySelect, toDeliveryView } from './delivery-view';
import type { AuthorizedEndpoint } from './require-endpoint';
import { requireEndpointReceiving } from './require-endpoint-receiving';

/**
 * POST /v1/webhook-endpoints/{id}/test-events: a `webhook.test` event delivered to that endpoint
 * only (the route has found it with requireEndpoint).
 */
export async function sendTestEvent(ctx: VerbContext, { endpoint }: { endpoint: AuthorizedEndpoint }) {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    await requireEndpointReceiving(tx, { endpointId: endpoint.id });
    // Written already dispatched: the fan-out must not send it to the environment's other endpoints.
    const event = await tx.db.outboxEvent.create({
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
    const delivery = await tx.db.webhookDelivery.create({
      data: { endpointId: endpoint.id, eventId: event.id, eventType: 'webhook.test', nextAttemptAt: now, createdAt: now, updatedAt: now },
      select: deliverySelect,
    });
    return toDeliveryView(delivery);
  });
}
