import type { VerbContext } from '../context/verb-context';
import type { WorkspacePermission } from '../auth/permissions';
import { insertUserUnlessKnown, upsertBusinessMember, upsertWorkspaceMember } from './store';

/** The person with this email, created on first sight (sign-in, invitation, seed). */
export async function ensureUser({ db }: VerbContext, input: { email: string; name?: string | null }) {
  return insertUserUnlessKnown(db, { email: input.email.trim().toLowerCase(), name: input.name ?? null });
}

export async function addWorkspaceMember(
  { db }: VerbContext,
  input: { workspaceId: string; userId: string; permissions: readonly WorkspacePermission[] },
) {
  return upsertWorkspaceMember(db, input);
}

export async function addBusinessMember(
  { db }: VerbContext,
  input: { businessId: string; userId: string; role: 'owner' | 'editor' | 'viewer' },
) {
  return upsertBusinessMember(db, input);
}
