import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { listLeads } from '@/lib/leads/list-leads';
import { requireBusinessReader } from '@/lib/members/business-authorization';
import { listLeadsContract } from '../../contract';

export const GET = defineRoute(listLeadsContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => ({ data: await listLeads(ctx, { access: ctx.access, query: ctx.query }) }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
