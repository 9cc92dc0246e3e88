import type { VerbContext } from '../context/verb-context';
import { insertBusiness, insertConnection } from './store';

export type CreateBusinessInput = {
  workspaceId: string;
  name: string;
  /** Connects the business to a project at once. */
  connection?: { projectId: string; kind: 'direct' | 'managed'; status?: 'active' | 'inactive' };
};

export async function createBusiness({ db }: VerbContext, input: CreateBusinessInput) {
  const business = await insertBusiness(db, { workspaceId: input.workspaceId, name: input.name, displayName: input.name });
  if (input.connection) {
    await insertConnection(db, {
      businessId: business.id,
      projectId: input.connection.projectId,
      kind: input.connection.kind,
      status: input.connection.status ?? 'active',
    });
  }
  return business;
}
