import type { VerbContext } from '../context/verb-context';
import { cancelPendingOfInactiveEndpoint, cancelPendingOfInactiveEndpoints } from './store';

/**
 * Every pending delivery of a disabled or deleted endpoint becomes canceled (but those a sender
 * holds: it settles them itself). Disabling and deleting an endpoint call it in their own
 * transaction; the senders call it when a claimed delivery's endpoint turns out disabled or deleted.
 */
export async function cancelDeliveriesOfInactiveEndpoint({ db, now }: VerbContext, { endpointId }: { endpointId: string }): Promise<number> {
  return cancelPendingOfInactiveEndpoint(db, endpointId, now);
}

/**
 * The minute job's backstop: a delivery can still be born pending for an endpoint disabled or
 * deleted at that moment (a fan-out that read the endpoint before the change committed), or by
 * an older version of the service. The claim never takes such a delivery; this gives it its final state.
 */
export async function cancelDeliveriesOfInactiveEndpoints({ db, now }: VerbContext): Promise<number> {
  return cancelPendingOfInactiveEndpoints(db, now);
}
