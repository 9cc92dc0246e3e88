import { defineRoute } from '@/lib/http/define-route';
import { readableShownSince } from '@/lib/requestlog/retention';
import { searchRequestLogs } from '@/lib/requestlog/search-request-logs';
import { searchRequestLogsContract } from './contract';

export const GET = defineRoute(searchRequestLogsContract, {
  // Without `logs:read` anywhere the answer is 403, never an empty search.
  authorize: ({ db, principal, now }) => readableShownSince(db, principal, now),
  handle: async (ctx) => ({ data: await searchRequestLogs(ctx, { shownSince: ctx.access, query: ctx.query }) }),
});
