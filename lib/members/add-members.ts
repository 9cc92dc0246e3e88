import type { VerbContext } from '../context/verb-context';
import type { WorkspacePermission } from '../auth/permissions';

/** The person with this email, created on first sight (sign-in, invitation, seed). */
export async function ensureUser({ db }: VerbContext, input: { email: string; name?: string | null }) {
  const email = input.email.trim().toLowerCase();
  return db.user.upsert({
    where: { email },
    create: { email, name: input.name ?? null },
    update: {},
    select: { id: true, email: true, name: true },
  });
}

export async function addWorkspaceMember(
  { db }: VerbContext,
  input: { workspaceId: string; userId: string; permissions: readonly WorkspacePermission[] },
) {
  return db.workspaceMember.upsert({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } },
    create: { workspaceId: input.workspaceId, userId: input.userId, permissions: [...input.permissions] },
    update: { permissions: [...input.permissions], status: 'active' },
    select: { id: true },
  });
}

export async function addBusinessMember(
  { db }: VerbContext,
  input: { businessId: string; userId: string; role: 'owner' | 'editor' | 'viewer' },
) {
  return db.businessMember.upsert({
    where: { businessId_userId: { businessId: input.businessId, userId: input.userId } },
    create: { businessId: input.businessId, userId: input.userId, role: input.role },
    update: { role: input.role, status: 'active' },
    select: { id: true },
  });
}
