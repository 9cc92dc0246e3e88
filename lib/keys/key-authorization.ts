import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { findKeyOwner } from './store';

/** The key, if the person holds `api_keys:create` in its workspace (rotation, revocation); else 404/403. */
export async function requireKeyManager({ db, principal }: VerbContext<SessionPrincipal>, { keyId }: { keyId: string }) {
  const key = await findKeyOwner(db, keyId);
  const notFound = `API key ${keyId} does not exist.`;
  if (!key) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, key.workspaceId, 'api_keys:create', notFound);
  return key;
}
