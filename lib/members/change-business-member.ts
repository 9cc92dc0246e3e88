import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { requireBusinessOwner } from './business-authorization';
import { toBusinessMemberView } from './business-member-view';
import type { BusinessMemberView } from './schemas';
import { countActiveOwners, findCurrentMembership, lockOwners, updateMembership } from './store';

type Change = { role: BusinessMemberView['role'] } | { remove: true };

/**
 * Changes one membership (owner only). A business always keeps at least one active owner, so
 * the last active owner can be neither demoted nor removed (an invitation is not an owner yet).
 * A removed member loses access at once: every request checks membership afresh.
 */
export async function changeBusinessMember(
  ctx: VerbContext<SessionPrincipal>,
  input: { businessId: string; membershipId: string; change: Change },
) {
  const { principal, now } = ctx;
  return withTransaction(ctx, async (tx) => {
    // Lock the business's owner rows first, then check the caller is (still) an owner: two owners
    // demoting or removing each other at once take turns, and the second sees the first's change.
    await lockOwners(tx.db, input.businessId);
    const access = await requireBusinessOwner(tx, { businessId: input.businessId });
    const member = await findCurrentMembership(tx.db, input.businessId, input.membershipId);
    if (!member) throw new ServiceError('not_found', `Membership ${input.membershipId} does not exist.`);
    // Only losing an active owner can leave the business unowned; an invited owner may go freely.
    const losesOwner =
      member.role === 'owner' && member.status === 'active' && ('remove' in input.change || input.change.role !== 'owner');
    if (losesOwner && (await countActiveOwners(tx.db, input.businessId)) <= 1) {
      throw new ServiceError('conflict', 'A business must keep at least one owner: make someone else owner first.');
    }
    const row = await updateMembership(tx.db, member.id, 'remove' in input.change ? { status: 'removed' } : { role: input.change.role }, now);
    const view = toBusinessMemberView(row);
    await recordEvent(
      tx,
      {
        type: 'remove' in input.change ? 'business_member.removed' : 'business_member.updated',
        workspaceId: access.business.workspaceId,
        projectId: access.connection?.projectId,
        // Business events belong to the Live environment, where business routes quote.
        environmentId: access.connection?.liveEnvironmentId,
        businessId: input.businessId,
        subjectId: view.id,
        data: { member: view, changedBy: principal.userId },
      },
    );
    return view;
  });
}
