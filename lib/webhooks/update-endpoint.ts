import type { VerbContext } from '../context/verb-context';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { toEndpointView } from './endpoint-view';
import { findEndpoint, saveEndpointChanges, type EndpointChanges } from './store';
import type { UpdateEndpointRequest } from './schemas';
import { refuseOnLive, testFailureColumns } from './test-failures';
import { withEndpointLocked } from './with-endpoint-locked';
import { requireDeliverableTarget } from './target-policy';

/**
 * PATCH (the route has found the endpoint with requireEndpoint): url (one delivery would accept),
 * event types, description,
 * enabled/disabled, and on a Test endpoint its failures on demand and compressed retries. A
 * disabled endpoint receives nothing: disabling it cancels its pending deliveries in the same
 * transaction (they can be replayed once it is enabled again).
 */
export async function updateEndpoint(ctx: VerbContext, { endpointId, changes: request }: { endpointId: string; changes: UpdateEndpointRequest }) {
  const { now } = ctx;
  if (request.url !== undefined) requireDeliverableTarget(request.url);
  const { testFailure, ...rest } = request;
  const changes: EndpointChanges = { ...rest, ...(testFailure !== undefined ? testFailureColumns(testFailure) : {}) };
  if (testFailure || request.compressedRetries) {
    const endpoint = await findEndpoint(ctx.db, endpointId);
    if (endpoint) refuseOnLive(endpoint.environment.kind, request);
  }
  if (changes.status !== 'disabled') return toEndpointView(await saveEndpointChanges(ctx.db, endpointId, changes, now), now);
  return withEndpointLocked(ctx, endpointId, async (tx) => {
    const row = await saveEndpointChanges(tx.db, endpointId, changes, now);
    await cancelDeliveriesOfInactiveEndpoint(tx, { endpointId });
    return toEndpointView(row, now);
  });
}
