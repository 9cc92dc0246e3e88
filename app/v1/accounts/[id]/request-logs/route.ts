import { listAccountRequestLogs } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { accountRequestLogsContract } from '../../contract';

export const GET = defineRoute(accountRequestLogsContract, async ({ db, principal, params, query }) => ({
  response: Response.json(await listAccountRequestLogs(db, principal, { accountId: params.id, ...query })),
}));
