import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { getRequestLog } from '@/lib/requestlog/search-request-logs';
import { getRequestLogContract } from '../contract';

export const GET = defineRoute(getRequestLogContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'logs:read'),
  handle: async (ctx) => ({ data: { log: await getRequestLog(ctx, { workspaceIds: ctx.access, requestId: ctx.params.requestId }) } }),
});
