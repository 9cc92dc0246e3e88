import { getAccount, requireAccount } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { getAccountContract } from '../contract';

export const GET = defineRoute(getAccountContract, async ({ db, principal, params }) => {
  requireAccount(principal, params.id);
  return { response: Response.json(await getAccount(db, principal)) };
});
