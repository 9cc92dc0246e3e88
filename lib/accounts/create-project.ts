import { withTransaction, type VerbContext } from '../context/verb-context';

/**
 * A project always has exactly two environments, Test and Live: both are created with it,
 * in one transaction, and a unique (project, kind) index keeps it so.
 */
export async function createProject(ctx: VerbContext, input: { workspaceId: string; name: string; entitlements?: string[] }) {
  return withTransaction(ctx, async ({ db: tx }) => {
    const project = await tx.project.create({
      data: { workspaceId: input.workspaceId, name: input.name, entitlements: input.entitlements ?? ['api_access'] },
      select: { id: true, workspaceId: true, name: true },
    });
    const test = await tx.environment.create({ data: { projectId: project.id, kind: 'test' }, select: { id: true } });
    const live = await tx.environment.create({ data: { projectId: project.id, kind: 'live' }, select: { id: true } });
    return { ...project, environments: { test: test.id, live: live.id } };
  });
}
