import type { WorkspacePermission } from '../auth/permissions';
import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { BusinessMemberView } from './schemas';

/**
 * The members' store: the only place in this folder with SQL, for people as members add them
 * (by email), workspace memberships, and business memberships and invitations. What a person
 * may do (business-authorization.ts) reads through lib/auth/permissions.ts.
 */

type BusinessRole = BusinessMemberView['role'];

/** What a membership's view shows (business-member-view.ts), with its person's email and name. */
const businessMemberSelect = {
  id: true,
  businessId: true,
  userId: true,
  role: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { email: true, name: true } },
} satisfies Prisma.BusinessMemberSelect;

export type BusinessMemberRow = Prisma.BusinessMemberGetPayload<{ select: typeof businessMemberSelect }>;

// ---------------------------------------------------------------------------------------------
// People and workspace memberships

/** The person with this email, created when new; an existing one is left as it is. */
export async function insertUserUnlessKnown(db: DbOrTx, user: { email: string; name: string | null }) {
  return db.user.upsert({ where: { email: user.email }, create: user, update: {}, select: { id: true, email: true, name: true } });
}

/** Makes the person an active member with these permissions, whatever they were before. */
export async function upsertWorkspaceMember(
  db: DbOrTx,
  member: { workspaceId: string; userId: string; permissions: readonly WorkspacePermission[] },
): Promise<{ id: string }> {
  const { workspaceId, userId } = member;
  const permissions = [...member.permissions];
  return db.workspaceMember.upsert({
    where: { workspaceId_userId: { workspaceId, userId } },
    create: { workspaceId, userId, permissions },
    update: { permissions, status: 'active' },
    select: { id: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Business memberships

/** Makes the person an active member with this role, whatever they were before. */
export async function upsertBusinessMember(db: DbOrTx, member: { businessId: string; userId: string; role: BusinessRole }): Promise<{ id: string }> {
  const { businessId, userId, role } = member;
  return db.businessMember.upsert({
    where: { businessId_userId: { businessId, userId } },
    create: { businessId, userId, role },
    update: { role, status: 'active' },
    select: { id: true },
  });
}

/** The roster: active and invited members, owners first, then by age. */
export async function listRoster(db: DbOrTx, businessId: string): Promise<BusinessMemberRow[]> {
  return db.businessMember.findMany({
    where: { businessId, status: { in: ['active', 'invited'] } },
    orderBy: [{ role: 'asc' }, { createdAt: 'asc' }],
    select: businessMemberSelect,
  });
}

/** Locks the business's owner rows until the transaction ends. */
export async function lockOwners(db: DbOrTx, businessId: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM business_members WHERE business_id = ${businessId}::uuid AND role = 'owner' FOR UPDATE`;
}

/** A membership of the business that is not removed. */
export async function findCurrentMembership(db: DbOrTx, businessId: string, membershipId: string) {
  return db.businessMember.findFirst({
    where: { id: membershipId, businessId, status: { not: 'removed' } },
    select: { id: true, role: true, status: true },
  });
}

export async function countActiveOwners(db: DbOrTx, businessId: string): Promise<number> {
  return db.businessMember.count({ where: { businessId, role: 'owner', status: 'active' } });
}

/** Gives the membership another role, or marks it removed. */
export async function updateMembership(
  db: DbOrTx,
  membershipId: string,
  change: { role: BusinessRole } | { status: 'removed' },
  now: Date,
): Promise<BusinessMemberRow> {
  return db.businessMember.update({ where: { id: membershipId }, data: { ...change, updatedAt: now }, select: businessMemberSelect });
}

/** The status of the person's membership of the business, if they have one (removed included). */
export async function findMembershipStatus(db: DbOrTx, businessId: string, userId: string) {
  return db.businessMember.findUnique({ where: { businessId_userId: { businessId, userId } }, select: { status: true } });
}

/** An invitation with this role: a new membership, or a removed one invited again. */
export async function upsertInvitation(
  db: DbOrTx,
  invitation: { businessId: string; userId: string; role: BusinessRole },
  now: Date,
): Promise<BusinessMemberRow> {
  const { businessId, userId, role } = invitation;
  return db.businessMember.upsert({
    where: { businessId_userId: { businessId, userId } },
    create: { businessId, userId, role, status: 'invited', createdAt: now, updatedAt: now },
    update: { role, status: 'invited', updatedAt: now },
    select: businessMemberSelect,
  });
}

/** Makes the person's pending invitations active memberships; returns how many. */
export async function activateInvitations(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const { count } = await db.businessMember.updateMany({ where: { userId, status: 'invited' }, data: { status: 'active', updatedAt: now } });
  return count;
}
