import { defineRoute } from '@/lib/http/define-route';
import { createPublicQuote } from '@/lib/quotes/create-public-quote';
import { createPublicQuoteContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(
  createPublicQuoteContract,
  async ({ db, body, requestId, now, startedAt, annotate }) => {
    annotate({ businessId: body.businessId });
    const { result, replayed, scope } = await createPublicQuote({ db, requestId, now, startedAt }, body);
    annotate(scope);
    return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
  { rateLimit: { name: 'publicQuoteCreate', key: ({ body }) => body.businessId } },
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
