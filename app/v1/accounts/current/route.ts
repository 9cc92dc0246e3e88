import { getAccount } from '@/lib/accounts/get-account';
import { defineRoute } from '@/lib/http/define-route';
import { currentAccountContract } from '../contract';

export const GET = defineRoute(currentAccountContract, async (ctx) => ({
  data: await getAccount(ctx),
}));
