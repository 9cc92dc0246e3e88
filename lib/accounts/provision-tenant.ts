import { createBook } from '../books/create-book';
import { createBookVersion } from '../books/create-book-version';
import { publishBookVersion } from '../books/publish-book-version';
import { createBusiness } from '../businesses/create-business';
import type { Db } from '../db/client';
import type { EnvironmentName } from '../auth/principal';
import { createProject } from './create-project';
import { createWorkspace } from './create-workspace';

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
export async function provisionTenant(db: Db, input: ProvisionTenantInput, now: Date) {
  const workspace = await createWorkspace(db, input.workspace);
  const project = await createProject(db, { workspaceId: workspace.id, name: input.projectName });
  const business = await createBusiness(db, {
    workspaceId: workspace.id,
    name: input.business.name,
    connection: {
      projectId: project.id,
      kind: input.business.connectionKind ?? 'direct',
      status: input.business.connectionStatus ?? 'active',
    },
  });
  const book = await createBook(db, { projectId: project.id, key: input.book.key, name: input.book.name, makePrimary: true });
  const version = await createBookVersion(db, { bookId: book.id, artifact: input.book.artifact }, now);
  for (const environment of input.publishTo) {
    await publishBookVersion(db, { bookId: book.id, versionId: version.id, environment }, now);
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
