import type { VerbContext } from '../context/verb-context';
import type { EnvironmentName } from '../auth/principal';
import { endpointSelect, toEndpointView } from './endpoint-view';

/** The endpoints of the workspaces where the person manages webhooks (found by the route). */
export async function listEndpoints(
  { db, now }: VerbContext,
  { workspaceIds, filter }: { workspaceIds: string[]; filter: { projectId?: string; environment?: EnvironmentName } },
) {
  const rows = await db.webhookEndpoint.findMany({
    where: {
      deletedAt: null,
      projectId: filter.projectId,
      environment: filter.environment ? { kind: filter.environment } : undefined,
      workspaceId: { in: workspaceIds },
    },
    orderBy: { createdAt: 'asc' },
    select: endpointSelect,
  });
  return rows.map((row) => toEndpointView(row, now));
}
