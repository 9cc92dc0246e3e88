import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { toLeads } from './lead-view';
import type { Lead } from './schemas';
import type { PipelineStatus } from './statuses';
import { findLead, updateLeadStatus } from './store';

/**
 * PATCH /v1/businesses/{id}/leads/{leadId}: moves a lead along the business's pipeline (new,
 * contacted, won, lost; any order, since people correct themselves); an erased lead has left it. The route has checked who
 * may (owner, editor, or `businesses:manage`).
 */
export async function moveLead(
  { db, principal, now }: VerbContext<SessionPrincipal>,
  { access, leadId, status }: { access: BusinessAccess; leadId: string; status: PipelineStatus },
): Promise<Lead> {
  const lead = await findLead(db, { id: leadId, businessId: access.business.id });
  if (!lead) throw new ServiceError('not_found', `No lead ${leadId} for this business.`);
  if (lead.status === 'erased') throw new ServiceError('conflict', 'This lead’s personal data was erased: it has left the pipeline and cannot be moved.');
  const moved = lead.status === status ? lead : await updateLeadStatus(db, { id: lead.id, status, changedBy: principal.userId, changedAt: now });
  const [view] = await toLeads(db, [moved]);
  return view;
}
