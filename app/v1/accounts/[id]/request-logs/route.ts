import { listAccountRequestLogs } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { accountRequestLogsContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(accountRequestLogsContract, async ({ db, principal, params, query }) => ({
  response: Response.json(await listAccountRequestLogs(db, principal, { accountId: params.id, ...query })),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET']);
