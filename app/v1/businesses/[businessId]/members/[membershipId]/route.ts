import { defineRoute } from '@/lib/http/define-route';
import { requireMembershipChanger } from '@/lib/members/business-authorization';
import { changeBusinessMember } from '@/lib/members/change-business-member';
import { removeMemberContract, updateMemberContract } from '../../../contract';

// The verb checks ownership again under its lock on the owners (two owners demoting each other).
export const PATCH = defineRoute(updateMemberContract, {
  authorize: (ctx) => requireMembershipChanger(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({
    data: { member: await changeBusinessMember(ctx, { ...ctx.params, change: { role: ctx.body.role } }) },
  }),
});

export const DELETE = defineRoute(removeMemberContract, {
  authorize: (ctx) => requireMembershipChanger(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({
    data: { member: await changeBusinessMember(ctx, { ...ctx.params, change: { remove: true } }) },
  }),
});
