import { listBusinessAccountQuotes } from '@/lib/accounts/business-account-quotes';
import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessManager } from '@/lib/members/business-authorization';
import { listWorkspaceAccountQuotesContract } from './contract';

export const GET = defineRoute(listWorkspaceAccountQuotesContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'businesses:manage'),
  handle: async (ctx) => {
    const { businessId, environment, ...query } = ctx.query;
    const access = await requireBusinessManager(ctx, { businessId });
    return { data: await listBusinessAccountQuotes(ctx, { access, environment, query }) };
  },
});
