import { getQuoteSpec } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { quoteSpecContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(quoteSpecContract, async ({ db, principal, params }) => ({
  response: Response.json(await getQuoteSpec(db, principal, params.id)),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET']);
