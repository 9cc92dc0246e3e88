import type { VerbContext } from '../context/verb-context';

export type CreateBusinessInput = {
  workspaceId: string;
  name: string;
  /** Connects the business to a project at once. */
  connection?: { projectId: string; kind: 'direct' | 'managed'; status?: 'active' | 'inactive' };
};

export async function createBusiness({ db }: VerbContext, input: CreateBusinessInput) {
  const business = await db.business.create({
    data: { workspaceId: input.workspaceId, name: input.name, displayName: input.name },
    select: { id: true, workspaceId: true, name: true },
  });
  if (input.connection) {
    await db.connection.create({
      data: {
        businessId: business.id,
        projectId: input.connection.projectId,
        kind: input.connection.kind,
        status: input.connection.status ?? 'active',
      },
    });
  }
  return business;
}
