import { defineRoute } from '@/lib/http/define-route';
import { moveLead } from '@/lib/leads/move-lead';
import { LEAD_PIPELINE, requireBusinessDuty } from '@/lib/members/business-authorization';
import { moveLeadContract } from '../../../contract';

export const PATCH = defineRoute(moveLeadContract, {
  authorize: (ctx) => requireBusinessDuty(ctx, { businessId: ctx.params.businessId, duty: LEAD_PIPELINE }),
  handle: async (ctx) => ({ data: { lead: await moveLead(ctx, { access: ctx.access, leadId: ctx.params.leadId, status: ctx.body.status }) } }),
});
