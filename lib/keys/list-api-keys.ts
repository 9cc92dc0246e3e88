import type { SessionPrincipal } from '../auth/principal';
import { findActiveWorkspaceIds } from '../auth/store';
import type { VerbContext } from '../context/verb-context';
import { listKeys } from './store';
import { toApiKeyView } from './to-api-key-view';

/** Keys of the projects in the person's workspaces; never a secret. Newest first. */
export async function listApiKeys(
  { db, principal, now }: VerbContext<SessionPrincipal>,
  filter: { projectId?: string; environment?: 'test' | 'live' },
) {
  const workspaceIds = await findActiveWorkspaceIds(db, principal.userId);
  const rows = await listKeys(db, { ...filter, workspaceIds });
  return rows.map((row) => ({ ...toApiKeyView(row, now), projectId: row.projectId, predecessorId: row.predecessorId }));
}
