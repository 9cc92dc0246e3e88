import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { listMembershipsWithWorkspaces } from './store';

/** The person's workspaces with their projects, environments and the person's permissions. */
export async function listWorkspaces({ db, principal }: VerbContext<SessionPrincipal>) {
  const memberships = await listMembershipsWithWorkspaces(db, principal.userId);
  return memberships.map((m) => ({ ...m.workspace, permissions: m.permissions }));
}
