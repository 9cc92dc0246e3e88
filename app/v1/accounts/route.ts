import { getAccount } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { listAccountsContract } from './contract';

export const GET = defineRoute(listAccountsContract, async ({ db, principal }) => ({
  response: Response.json({ object: 'list', data: [await getAccount(db, principal)], has_more: false }),
}));
