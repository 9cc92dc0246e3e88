import { defineRoute } from '@/lib/http/define-route';
import { readableShownSince } from '@/lib/requestlog/retention';
import { getRequestLog } from '@/lib/requestlog/search-request-logs';
import { getRequestLogContract } from '../contract';

export const GET = defineRoute(getRequestLogContract, {
  authorize: ({ db, principal, now }) => readableShownSince(db, principal, now),
  handle: async (ctx) => ({ data: { log: await getRequestLog(ctx, { shownSince: ctx.access, requestId: ctx.params.requestId }) } }),
});
