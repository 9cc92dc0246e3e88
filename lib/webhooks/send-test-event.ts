import { randomUUID } from 'node:crypto';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { toDeliveryView } from './delivery-view';
import type { AuthorizedEndpoint } from './require-endpoint';
import { requireEndpointReceiving } from './require-endpoint-receiving';
import { insertEndpointOnlyEvent } from './store';

/**
 * POST /v1/webhook-endpoints/{id}/test-events: a `webhook.test` event delivered to that endpoint
 * only (the route has found it with requireEndpoint).
 */
export async function sendTestEvent(ctx: VerbContext, { endpoint }: { endpoint: AuthorizedEndpoint }) {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    await requireEndpointReceiving(tx, { endpointId: endpoint.id });
    const delivery = await insertEndpointOnlyEvent(
      tx.db,
      endpoint.id,
      {
        id: randomUUID(),
        type: 'webhook.test',
        workspaceId: endpoint.workspaceId,
        projectId: endpoint.projectId,
        environmentId: endpoint.environmentId,
        subjectId: endpoint.id,
        data: { endpointId: endpoint.id, environment: endpoint.environment.kind, message: 'This is a test event.' },
      },
      now,
    );
    return toDeliveryView(delivery);
  });
}
