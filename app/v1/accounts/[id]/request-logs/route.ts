import { listAccountRequestLogs } from '@/lib/accounts/list-account-request-logs';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { accountRequestLogsContract } from '../../contract';

export const GET = defineRoute(accountRequestLogsContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await listAccountRequestLogs(ctx, ctx.query) }),
});
