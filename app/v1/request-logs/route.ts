import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { searchRequestLogs } from '@/lib/requestlog/search-request-logs';
import { searchRequestLogsContract } from './contract';

export const GET = defineRoute(searchRequestLogsContract, {
  // Without `logs:read` anywhere the answer is 403, never an empty search.
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'logs:read'),
  handle: async (ctx) => ({ data: await searchRequestLogs(ctx, { workspaceIds: ctx.access, query: ctx.query }) }),
});
