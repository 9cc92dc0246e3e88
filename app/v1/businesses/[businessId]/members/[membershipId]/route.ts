import { defineRoute } from '@/lib/http/define-route';
import { requireMembershipChanger } from '@/lib/members/business-authorization';
import { changeBusinessMember } from '@/lib/members/change-business-member';
import { removeMemberContract, updateMemberContract } from '../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

// The verb checks ownership again under its lock on the owners (two owners demoting each other).
export const PATCH = defineRoute(updateMemberContract, {
  authorize: ({ db, principal, params }) => requireMembershipChanger(db, principal, params.businessId),
  handle: async ({ db, principal, params, body, now }) => ({
    data: { member: await changeBusinessMember(db, principal, { ...params, change: { role: body.role } }, now) },
  }),
});

export const DELETE = defineRoute(removeMemberContract, {
  authorize: ({ db, principal, params }) => requireMembershipChanger(db, principal, params.businessId),
  handle: async ({ db, principal, params, now }) => ({
    data: { member: await changeBusinessMember(db, principal, { ...params, change: { remove: true } }, now) },
  }),
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(['PATCH', 'DELETE']);
