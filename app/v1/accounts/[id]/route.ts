import { getAccount } from '@/lib/accounts/get-account';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { getAccountContract } from '../contract';

export const GET = defineRoute(getAccountContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({ data: await getAccount(ctx) }),
});
