import { getAccount } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { currentAccountContract } from '../contract';

export const GET = defineRoute(currentAccountContract, async ({ db, principal }) => ({
  response: Response.json(await getAccount(db, principal)),
}));
