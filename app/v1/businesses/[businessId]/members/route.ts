import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessOwner, requireBusinessReader } from '@/lib/members/business-authorization';
import { inviteBusinessMember } from '@/lib/members/invite-business-member';
import { listBusinessMembers } from '@/lib/members/list-business-members';
import { inviteMemberContract, listMembersContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listMembersContract, {
  authorize: ({ db, principal, params }) => requireBusinessReader(db, principal, params.businessId),
  handle: async ({ db, access }) => ({ data: { members: await listBusinessMembers(db, access.business.id) } }),
});

export const POST = defineRoute(inviteMemberContract, {
  authorize: ({ db, principal, params }) => requireBusinessOwner(db, principal, params.businessId),
  handle: async ({ db, principal, access, params, body, now }) => ({
    data: { member: await inviteBusinessMember(db, principal, access, { businessId: params.businessId, ...body }, now) },
  }),
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
