import type { VerbContext } from '../context/verb-context';
import type { EnvironmentName } from '../auth/principal';
import { toEndpointView } from './endpoint-view';
import { listEndpointsOfWorkspaces } from './store';

/** The endpoints of the workspaces where the person manages webhooks (found by the route). */
export async function listEndpoints(
  { db, now }: VerbContext,
  { workspaceIds, filter }: { workspaceIds: string[]; filter: { projectId?: string; environment?: EnvironmentName } },
) {
  const rows = await listEndpointsOfWorkspaces(db, { workspaceIds, ...filter });
  return rows.map((row) => toEndpointView(row, now));
}
