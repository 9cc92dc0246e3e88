import { getQuoteSpec } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { quoteSpecContract } from '../../contract';

export const GET = defineRoute(quoteSpecContract, async ({ db, principal, params }) => ({
  response: Response.json(await getQuoteSpec(db, principal, params.id)),
}));
