import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessInWorkspace } from '@/lib/members/business-authorization';
import { listBusinessQuotes } from '@/lib/quotes/list-business-quotes';
import { listQuoteIntentsContract } from './contract';

export const GET = defineRoute(listQuoteIntentsContract, {
  // Someone in no workspace is refused before the query is read; the business is checked once it is.
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal),
  handle: async (ctx) => {
    const { businessId, ...query } = ctx.query;
    const access = await requireBusinessInWorkspace(ctx, { businessId });
    return { data: await listBusinessQuotes(ctx, { businessId: access.business.id, query }) };
  },
});
