import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';

/** The person's workspaces with their projects, environments and the person's permissions. */
export async function listWorkspaces({ db, principal }: VerbContext<SessionPrincipal>) {
  const memberships = await db.workspaceMember.findMany({
    where: { userId: principal.userId, status: 'active' },
    orderBy: { createdAt: 'asc' },
    select: {
      permissions: true,
      workspace: {
        select: {
          id: true,
          slug: true,
          name: true,
          projects: {
            orderBy: { createdAt: 'asc' },
            select: { id: true, name: true, primaryBookId: true, environments: { orderBy: { kind: 'asc' }, select: { id: true, kind: true } } },
          },
        },
      },
    },
  });
  return memberships.map((m) => ({ ...m.workspace, permissions: m.permissions }));
}
