import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { toBusinessView } from './business-view';
import { listWorkspaceAdmins } from '../accounts/store';
import { listBusinessesVisibleTo } from './store';

/** Businesses a person can see: those of their workspaces, and those they are a member of. */
export async function listBusinesses({ db, principal }: VerbContext<SessionPrincipal>) {
  const rows = await listBusinessesVisibleTo(db, principal.userId);
  const admins = await listWorkspaceAdmins(db, rows.map((row) => row.workspaceId));
  return rows.map((row) => ({ ...toBusinessView(row), yourMembership: row.members[0] ?? null, workspaceAdmins: admins.get(row.workspaceId) ?? [] }));
}
