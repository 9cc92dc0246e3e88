import { defineRoute } from '@/lib/http/define-route';
import { searchRequestLogs } from '@/lib/requestlog/search-request-logs';
import { searchRequestLogsContract } from './contract';

export const GET = defineRoute(searchRequestLogsContract, async ({ db, principal, query }) => ({
  data: await searchRequestLogs(db, principal, query),
}));
