import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { findDeliveryRef, type DeliveryRef } from './store';

/** The delivery, if it exists and the person may manage webhooks in its workspace (404 / 403 otherwise). */
export async function requireDelivery({ db, principal }: VerbContext<SessionPrincipal>, { deliveryId }: { deliveryId: string }) {
  const delivery = await findDeliveryRef(db, deliveryId);
  const notFound = `Webhook delivery ${deliveryId} does not exist.`;
  if (!delivery) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, delivery.endpoint.workspaceId, 'webhooks:manage', notFound);
  return delivery;
}

export type AuthorizedDelivery = DeliveryRef;
