import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { ensureUser } from './add-members';
import { businessMemberSelect, toBusinessMemberView } from './business-member-view';

/**
 * POST /v1/businesses/{id}/members (owner only: the route's requireBusinessOwner): invites a person by email with a role. The
 * membership is `invited` until that person first signs in with that email (through the
 * workspace's identity provider), which makes it `active`.
 */
export async function inviteBusinessMember(
  db: Db,
  principal: SessionPrincipal,
  access: BusinessAccess,
  input: { businessId: string; email: string; role: 'owner' | 'editor' | 'viewer' },
  now: Date,
) {
  return db.$transaction(async (tx) => {
    const user = await ensureUser(tx, { email: input.email });
    const existing = await tx.businessMember.findUnique({
      where: { businessId_userId: { businessId: input.businessId, userId: user.id } },
      select: { status: true },
    });
    if (existing && existing.status !== 'removed') {
      throw new ServiceError('conflict', `${user.email} is already ${existing.status === 'invited' ? 'invited' : 'a member'}.`);
    }
    const row = await tx.businessMember.upsert({
      where: { businessId_userId: { businessId: input.businessId, userId: user.id } },
      create: { businessId: input.businessId, userId: user.id, role: input.role, status: 'invited', createdAt: now, updatedAt: now },
      update: { role: input.role, status: 'invited', updatedAt: now },
      select: businessMemberSelect,
    });
    const member = toBusinessMemberView(row);
    await recordEvent(
      tx,
      {
        type: 'business_member.invited',
        workspaceId: access.business.workspaceId,
        projectId: access.connection?.projectId,
        environmentId: access.connection?.liveEnvironmentId,
        businessId: input.businessId,
        subjectId: member.id,
        data: { member, invitedBy: principal.userId },
      },
      now,
    );
    return member;
  });
}

/** On sign-in: the person's pending invitations become active memberships. */
export async function acceptInvitations(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const { count } = await db.businessMember.updateMany({
    where: { userId, status: 'invited' },
    data: { status: 'active', updatedAt: now },
  });
  return count;
}
