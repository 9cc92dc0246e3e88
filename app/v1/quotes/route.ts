import { defineRoute } from '@/lib/http/define-route';
import { createApiQuote } from '@/lib/quotes/create-api-quote';
import { createApiQuoteContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createApiQuoteContract, async ({ db, principal, body, requestId, now, startedAt, annotate }) => {
  annotate({ businessId: body.businessId });
  const { result, replayed } = await createApiQuote({ db, requestId, now, startedAt }, principal, body);
  return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
