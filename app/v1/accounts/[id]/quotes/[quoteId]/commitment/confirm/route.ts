import { confirmCommitment } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { confirmCommitmentContract } from '../../../../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(confirmCommitmentContract, async ({ db, principal, params, body, now }) => ({
  response: Response.json(
    await confirmCommitment(db, principal, { accountId: params.id, quoteId: params.quoteId, externalRef: body.external_ref }, now),
  ),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
