import { getQuoteSpec } from '@/lib/accounts/get-quote-spec';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { quoteSpecContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(quoteSpecContract, {
  authorize: ({ principal, params }) => requireAccount(principal, params.id),
  handle: async ({ db, principal }) => ({ data: await getQuoteSpec(db, principal) }),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
