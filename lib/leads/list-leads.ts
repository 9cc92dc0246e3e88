import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { toLeads } from './lead-view';
import type { Lead } from './schemas';
import type { LeadStatus } from './statuses';
import { listLeadsOfBusiness } from './store';

/**
 * GET /v1/businesses/{id}/leads: the quotes customers accepted on the hosted page, newest first,
 * with how to reach them. The route has checked that the person may read the business: its
 * members and workspace members with `businesses:manage`, nobody else, see contact details.
 */
export async function listLeads(
  ctx: VerbContext,
  { access, query }: { access: BusinessAccess; query: { status?: LeadStatus; limit: number; cursor?: string } },
): Promise<{ leads: Lead[]; nextCursor: string | null }> {
  const rows = await listLeadsOfBusiness(ctx.db, { businessId: access.business.id, ...query });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { leads: await toLeads(ctx.db, page), nextCursor };
}
