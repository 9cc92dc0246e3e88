import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { readEndpointReceiving } from './store';

/**
 * Refuses to queue a delivery for an endpoint that would not receive it: a deleted one (404, or
 * 409 when a delivery of it is being replayed) or a disabled one (409). The endpoint is read
 * under KEY SHARE: that waits for a deletion or disabling in progress (it holds the row FOR
 * UPDATE) and then reads its outcome; one that starts later waits for this transaction and
 * cancels the delivery it writes. Either way none is left pending.
 */
export async function requireEndpointReceiving(
  { db }: VerbContext,
  { endpointId, replayOf }: { endpointId: string; replayOf?: string },
): Promise<void> {
  const row = await readEndpointReceiving(db, endpointId);
  if (row.deleted && replayOf) throw new ServiceError('conflict', `Webhook delivery ${replayOf} cannot be replayed: its endpoint has been deleted.`);
  if (row.deleted) throw new ServiceError('not_found', `Webhook endpoint ${endpointId} does not exist.`);
  if (!row.enabled) throw new ServiceError('conflict', `Webhook endpoint ${endpointId} is disabled: enable it before sending it events.`);
}
