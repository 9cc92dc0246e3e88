import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { retentionOf } from '../requestlog/retention';
import { listMembershipsWithWorkspaces, listWorkspaceAdmins } from './store';

/** The person's workspaces with their projects, environments, the person's permissions and whom to ask for more. */
export async function listWorkspaces({ db, principal }: VerbContext<SessionPrincipal>) {
  const memberships = await listMembershipsWithWorkspaces(db, principal.userId);
  const admins = await listWorkspaceAdmins(db, memberships.map((m) => m.workspace.id));
  return memberships.map(({ workspace: { requestLogRetentionDays, ...workspace }, permissions }) => ({
    ...workspace,
    permissions,
    admins: admins.get(workspace.id) ?? [],
    requestLogRetention: retentionOf(requestLogRetentionDays),
  }));
}
