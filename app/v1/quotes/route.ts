import { defineRoute } from '@/lib/http/define-route';
import { createApiQuote } from '@/lib/quotes/create-api-quote';
import { createApiQuoteContract } from './contract';

export const POST = defineRoute(createApiQuoteContract, async ({ db, principal, body, requestId, now, startedAt, annotate }) => {
  annotate({ businessId: body.businessId });
  const { result, replayed } = await createApiQuote({ db, requestId, now, startedAt }, principal, body);
  return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
});
