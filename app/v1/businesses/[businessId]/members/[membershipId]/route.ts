import { defineRoute } from '@/lib/http/define-route';
import { changeBusinessMember } from '@/lib/members/change-business-member';
import { removeMemberContract, updateMemberContract } from '../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const PATCH = defineRoute(updateMemberContract, async ({ db, principal, params, body, now }) => {
  return { data: { member: await changeBusinessMember(db, principal, { ...params, change: { role: body.role } }, now) } };
});

export const DELETE = defineRoute(removeMemberContract, async ({ db, principal, params, now }) => {
  return { data: { member: await changeBusinessMember(db, principal, { ...params, change: { remove: true } }, now) } };
});

export const { GET, POST, PUT } = methodsNotAllowed(['PATCH', 'DELETE']);
