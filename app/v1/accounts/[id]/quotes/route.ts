import { createAccountQuote } from '@/lib/accounts/account-surface';
import { defineRoute } from '@/lib/http/define-route';
import { createAccountQuoteContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createAccountQuoteContract, async ({ db, principal, params, headers, body, now }) => {
  const { quote, replayed } = await createAccountQuote(
    db,
    principal,
    { accountId: params.id, idempotencyKey: headers['idempotency-key'], request: body },
    now,
  );
  return { response: Response.json(quote, { status: 201, headers: replayed ? { 'idempotent-replayed': 'true' } : {} }) };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
