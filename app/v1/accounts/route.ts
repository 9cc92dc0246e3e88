import { getAccount } from '@/lib/accounts/get-account';
import { defineRoute } from '@/lib/http/define-route';
import { listAccountsContract } from './contract';

export const GET = defineRoute(listAccountsContract, async (ctx) => ({
  data: { object: 'list' as const, data: [await getAccount(ctx)], has_more: false },
}));
