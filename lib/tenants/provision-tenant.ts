import { createBook } from '../books/create-book';
import { createBookVersion } from '../books/create-book-version';
import { publishBookVersion } from '../books/publish-book-version';
import { createBusiness } from '../businesses/create-business';
import type { VerbContext } from '../context/verb-context';
import type { EnvironmentName } from '../auth/principal';
import { createProject } from '../accounts/create-project';
import { createWorkspace } from '../accounts/create-workspace';

export type ProvisionTenantInput = {
  workspace: { slug: string; name: string };
  projectName: string;
  business: { name: string; connectionKind?: 'direct' | 'managed'; connectionStatus?: 'active' | 'inactive' };
  book: { key: string; name: string; artifact: unknown };
  publishTo: EnvironmentName[];
};

/**
 * A workspace with one project (Test + Live), one business connected to it, and a primary
 * book whose first version is published where asked. The demo seed and test factories use it.
 */
export async function provisionTenant(ctx: VerbContext, input: ProvisionTenantInput) {
  const workspace = await createWorkspace(ctx, input.workspace);
  const project = await createProject(ctx, { workspaceId: workspace.id, name: input.projectName });
  const business = await createBusiness(ctx, {
    workspaceId: workspace.id,
    name: input.business.name,
    connection: {
      projectId: project.id,
      kind: input.business.connectionKind ?? 'direct',
      status: input.business.connectionStatus ?? 'active',
    },
  });
  const book = await createBook(ctx, { projectId: project.id, key: input.book.key, name: input.book.name, makePrimary: true });
  const version = await createBookVersion(ctx, { bookId: book.id, artifact: input.book.artifact });
  for (const environment of input.publishTo) {
    await publishBookVersion(ctx, { bookId: book.id, versionId: version.id, environment });
  }
  return {
    workspaceId: workspace.id,
    projectId: project.id,
    environments: project.environments,
    businessId: business.id,
    bookId: book.id,
    versionId: version.id,
  };
}
