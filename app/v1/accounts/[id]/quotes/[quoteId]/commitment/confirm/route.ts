import { confirmCommitment } from '@/lib/accounts/confirm-commitment';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { confirmCommitmentContract } from '../../../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(confirmCommitmentContract, {
  authorize: ({ principal, params }) => requireAccount(principal, params.id),
  handle: async ({ db, principal, params, body, now }) => ({
    data: await confirmCommitment(db, principal, { quoteId: params.quoteId, externalRef: body.external_ref }, now),
  }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
