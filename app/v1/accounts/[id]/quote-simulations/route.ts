import { simulateQuote } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { simulateContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(simulateContract, async ({ db, principal, params, body }) => ({
  response: Response.json(await simulateQuote(db, principal, params.id, body)),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
