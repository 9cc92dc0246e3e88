import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { listMembershipsWithWorkspaces, listWorkspaceAdmins } from './store';

/** The person's workspaces with their projects, environments, the person's permissions and whom to ask for more. */
export async function listWorkspaces({ db, principal }: VerbContext<SessionPrincipal>) {
  const memberships = await listMembershipsWithWorkspaces(db, principal.userId);
  const admins = await listWorkspaceAdmins(db, memberships.map((m) => m.workspace.id));
  return memberships.map((m) => ({ ...m.workspace, permissions: m.permissions, admins: admins.get(m.workspace.id) ?? [] }));
}
