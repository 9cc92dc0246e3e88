import { defineRoute } from '@/lib/http/define-route';
import { listLeads } from '@/lib/leads/list-leads';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { listLeadsContract } from '../../contract';

export const GET = defineRoute(listLeadsContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({ data: await listLeads(ctx, { access: ctx.access, query: ctx.query }) }),
});
