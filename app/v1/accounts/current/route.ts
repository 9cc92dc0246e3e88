import { getAccount } from '@/lib/accounts/get-account';
import { defineRoute } from '@/lib/http/define-route';
import { currentAccountContract } from '../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(currentAccountContract, async (ctx) => ({
  data: await getAccount(ctx),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
