import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { ensureUser } from './add-members';
import { toBusinessMemberView } from './business-member-view';
import { activateInvitations, findMembershipStatus, upsertInvitation } from './store';

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
    const existing = await findMembershipStatus(tx.db, input.businessId, user.id);
    if (existing && existing.status !== 'removed') {
      throw new ServiceError('conflict', `${user.email} is already ${existing.status === 'invited' ? 'invited' : 'a member'}.`);
    }
    const member = toBusinessMemberView(await upsertInvitation(tx.db, { businessId: input.businessId, userId: user.id, role: input.role }, now));
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
  return activateInvitations(db, userId, now);
}
