import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
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
  ctx: VerbContext<SessionPrincipal>,
  { access, ...input }: { access: BusinessAccess; businessId: string; email: string; role: 'owner' | 'editor' | 'viewer' },
) {
  const { principal, now } = ctx;
  return withTransaction(ctx, async (tx) => {
    const user = await ensureUser(tx, { email: input.email });
    const existing = await tx.db.businessMember.findUnique({
      where: { businessId_userId: { businessId: input.businessId, userId: user.id } },
      select: { status: true },
    });
    if (existing && existing.status !== 'removed') {
      throw new ServiceError('conflict', `${user.email} is already ${existing.status === 'invited' ? 'invited' : 'a member'}.`);
    }
    const row = await tx.db.businessMember.upsert({
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
    );
    return member;
  });
}

/** On sign-in: the person's pending invitations become active memberships. */
export async function acceptInvitations({ db, now }: VerbContext, { userId }: { userId: string }): Promise<number> {
  const { count } = await db.businessMember.updateMany({
    where: { userId, status: 'invited' },
    data: { status: 'active', updatedAt: now },
  });
  return count;
}
