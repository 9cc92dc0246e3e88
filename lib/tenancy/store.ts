import type { EnvironmentName } from '../auth/principal';
import type { DbOrTx } from '../db/client';

/**
 * Tenancy lookups several domains share (keys, webhooks, accounts): the neutral home that keeps
 * them from importing each other's stores.
 */

/** A project's Test or Live environment, with the project's workspace: where keys and endpoints are made. */
export async function findProjectEnvironment(
  db: DbOrTx,
  { projectId, kind }: { projectId: string; kind: EnvironmentName },
): Promise<{ id: string; workspaceId: string } | null> {
  const environment = await db.environment.findUnique({
    where: { projectId_kind: { projectId, kind } },
    select: { id: true, project: { select: { workspaceId: true } } },
  });
  return environment && { id: environment.id, workspaceId: environment.project.workspaceId };
}
