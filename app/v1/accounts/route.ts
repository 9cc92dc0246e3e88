import { getAccount } from '@/lib/accounts/get-account';
import { defineRoute } from '@/lib/http/define-route';
import { listAccountsContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listAccountsContract, async (ctx) => ({
  data: { object: 'list' as const, data: [await getAccount(ctx)], has_more: false },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
