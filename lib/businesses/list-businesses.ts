import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { toBusinessView } from './business-view';
import { listBusinessesVisibleTo } from './store';

/** Businesses a person can see: those of their workspaces, and those they are a member of. */
export async function listBusinesses({ db, principal }: VerbContext<SessionPrincipal>) {
  const rows = await listBusinessesVisibleTo(db, principal.userId);
  return rows.map((row) => ({ ...toBusinessView(row), yourMembership: row.members[0] ?? null }));
}
