import { defineRoute } from '@/lib/http/define-route';
import { searchRequestLogs } from '@/lib/requestlog/search-request-logs';
import { searchRequestLogsContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(searchRequestLogsContract, async ({ db, principal, query }) => ({
  data: await searchRequestLogs(db, principal, query),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET']);
