import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessOwner, requireBusinessReader } from '@/lib/members/business-authorization';
import { inviteBusinessMember } from '@/lib/members/invite-business-member';
import { listBusinessMembers } from '@/lib/members/list-business-members';
import { inviteMemberContract, listMembersContract } from '../../contract';

export const GET = defineRoute(listMembersContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({ data: { members: await listBusinessMembers(ctx, { businessId: ctx.access.business.id }) } }),
});

export const POST = defineRoute(inviteMemberContract, {
  authorize: (ctx) => requireBusinessOwner(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({
    data: { member: await inviteBusinessMember(ctx, { access: ctx.access, businessId: ctx.params.businessId, ...ctx.body }) },
  }),
});
