import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { toApiKeyView } from './to-api-key-view';

/** Keys of the projects in the person's workspaces; never a secret. Newest first. */
export async function listApiKeys(
  { db, principal, now }: VerbContext<SessionPrincipal>,
  filter: { projectId?: string; environment?: 'test' | 'live' },
) {
  const rows = await db.apiKey.findMany({
    where: {
      projectId: filter.projectId,
      environment: filter.environment ? { kind: filter.environment } : undefined,
      workspaceId: { in: (await db.workspaceMember.findMany({ where: { userId: principal.userId, status: 'active' }, select: { workspaceId: true } })).map((m) => m.workspaceId) },
    },
    orderBy: { createdAt: 'desc' },
    take: 500,
    include: { environment: { select: { kind: true } } },
  });
  return rows.map((row) => ({ ...toApiKeyView(row, now), projectId: row.projectId, predecessorId: row.predecessorId }));
}
