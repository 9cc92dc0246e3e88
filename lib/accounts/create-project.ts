import { withTransaction, type VerbContext } from '../context/verb-context';
import { insertEnvironment, insertProject } from './store';

/**
 * A project always has exactly two environments, Test and Live: both are created with it,
 * in one transaction, and a unique (project, kind) index keeps it so.
 */
export async function createProject(ctx: VerbContext, input: { workspaceId: string; name: string; entitlements?: string[] }) {
  return withTransaction(ctx, async ({ db: tx }) => {
    const project = await insertProject(tx, { workspaceId: input.workspaceId, name: input.name, entitlements: input.entitlements ?? ['api_access'] });
    const test = await insertEnvironment(tx, project.id, 'test');
    const live = await insertEnvironment(tx, project.id, 'live');
    return { ...project, environments: { test: test.id, live: live.id } };
  });
}
