import { defineRoute } from '@/lib/http/define-route';
import { eraseLead } from '@/lib/leads/erase-lead';
import { LEAD_ERASURE, requireBusinessDuty } from '@/lib/members/business-authorization';
import { eraseLeadContract } from '../../../../contract';

export const POST = defineRoute(eraseLeadContract, {
  authorize: (ctx) => requireBusinessDuty(ctx, { businessId: ctx.params.businessId, duty: LEAD_ERASURE }),
  handle: async (ctx) => ({ data: { lead: await eraseLead(ctx, { access: ctx.access, leadId: ctx.params.leadId }) } }),
});
