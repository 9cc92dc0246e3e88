import { defineRoute } from '@/lib/http/define-route';
import { inviteBusinessMember } from '@/lib/members/invite-business-member';
import { listBusinessMembers } from '@/lib/members/list-business-members';
import { inviteMemberContract, listMembersContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listMembersContract, async ({ db, principal, params }) => {
  return { data: { members: await listBusinessMembers(db, principal, params.businessId) } };
});

export const POST = defineRoute(inviteMemberContract, async ({ db, principal, params, body, now }) => {
  return { data: { member: await inviteBusinessMember(db, principal, { businessId: params.businessId, ...body }, now) } };
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed(['GET', 'POST']);
