import { listAccountRequestLogs } from '@/lib/accounts/list-account-request-logs';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { accountRequestLogsContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(accountRequestLogsContract, {
  authorize: ({ principal, params }) => requireAccount(principal, params.id),
  handle: async ({ db, principal, query }) => ({ data: await listAccountRequestLogs(db, principal, query) }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
