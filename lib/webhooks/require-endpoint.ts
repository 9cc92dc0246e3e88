import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { findEndpoint, type EndpointRow } from './store';

/** The endpoint, if it exists and the person may manage webhooks in its workspace. */
export async function requireEndpoint({ db, principal }: VerbContext<SessionPrincipal>, { endpointId }: { endpointId: string }) {
  const endpoint = await findEndpoint(db, endpointId);
  const notFound = `Webhook endpoint ${endpointId} does not exist.`;
  if (!endpoint) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, endpoint.workspaceId, 'webhooks:manage', notFound);
  return endpoint;
}

export type AuthorizedEndpoint = EndpointRow;
