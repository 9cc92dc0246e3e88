import { requireAccount } from '@/lib/accounts/require-account';
import { simulateQuote } from '@/lib/accounts/simulate-quote';
import { defineRoute } from '@/lib/http/define-route';
import { simulateContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(simulateContract, {
  authorize: ({ principal, params }) => requireAccount(principal, params.id),
  handle: async ({ db, principal, body }) => ({ data: await simulateQuote(db, principal, body) }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
