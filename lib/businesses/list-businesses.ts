import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { businessSelect, toBusinessView } from './business-view';

/** Businesses a person can see: those of their workspaces, and those they are a member of. */
export async function listBusinesses({ db, principal }: VerbContext<SessionPrincipal>) {
  const rows = await db.business.findMany({
    where: {
      OR: [
        { workspace: { members: { some: { userId: principal.userId, status: 'active' } } } },
        { members: { some: { userId: principal.userId, status: 'active' } } },
      ],
    },
    orderBy: { createdAt: 'asc' },
    select: { ...businessSelect, members: { where: { userId: principal.userId, status: 'active' }, select: { id: true, role: true } } },
  });
  return rows.map((row) => ({ ...toBusinessView(row), yourMembership: row.members[0] ?? null }));
}
