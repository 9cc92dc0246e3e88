import { defineRoute } from '@/lib/http/define-route';
import { listBusinessMembers } from '@/lib/members/list-business-members';
import { listMembersContract } from '../../contract';

export const GET = defineRoute(listMembersContract, async ({ db, principal, params, annotate }) => {
  annotate({ businessId: params.businessId });
  return { data: { members: await listBusinessMembers(db, principal, params.businessId) } };
});
