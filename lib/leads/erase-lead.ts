import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { toLeads } from './lead-view';
import type { Lead } from './schemas';
import { erasePersonalData, findLead, forgetCustomerRequests } from './store';

/**
 * POST /v1/businesses/{id}/leads/{leadId}/erasure: a person asked the business to forget them.
 * Their name, email, phone and note go from the acceptance and from the event that carried them;
 * the quote, its signed receipt and the lead's status stay (docs/quote-lifecycle.md says where
 * else personal data never was). Idempotent: erasing again answers the erased lead.
 */
export async function eraseLead(
  ctx: VerbContext<SessionPrincipal>,
  { access, leadId }: { access: BusinessAccess; leadId: string },
): Promise<Lead> {
  const found = await findLead(ctx.db, { id: leadId, businessId: access.business.id });
  if (!found) throw new ServiceError('not_found', `No lead ${leadId} for this business.`);
  // The request log first, a month of days per statement: the lead reads erased only once its
  // requests are forgotten, and a retry after a crash forgets them again.
  if (!found.erasedAt) await forgetCustomerRequests(ctx.db, found, ctx.now);
  const erased = await withTransaction(ctx, async ({ db: tx, principal, now }) => {
    const lead = await findLead(tx, { id: leadId, businessId: access.business.id });
    if (!lead) throw new ServiceError('not_found', `No lead ${leadId} for this business.`);
    if (lead.erasedAt) return lead;
    return erasePersonalData(tx, { id: lead.id, quoteIntentId: lead.quoteIntentId, erasedBy: principal.userId, erasedAt: now });
  });
  const [view] = await toLeads(ctx.db, [erased]);
  return view;
}
