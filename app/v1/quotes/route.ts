import { defineRoute } from '@/lib/http/define-route';
import { createApiQuote } from '@/lib/quotes/create-api-quote';
import { listEnvironmentQuotes } from '@/lib/quotes/list-environment-quotes';
import { quoteIdempotencyKey } from '@/lib/quotes/quote-idempotency-key';
import { authenticateQuoteKey } from '@/lib/quotes/store';
import { createApiQuoteContract, listQuotesContract } from './contract';

export const POST = defineRoute(createApiQuoteContract, {
  // The key may come from memory: the quote's insert re-checks it (lib/quotes/store.ts).
  authenticate: (request, db, now) => authenticateQuoteKey(db, request.headers.get('authorization'), now),
  handle: async (ctx) => {
    const { headers, body, annotate } = ctx;
    const request = { ...body, idempotencyKey: quoteIdempotencyKey(body, headers) };
    const { result, replayed, scope } = await createApiQuote(ctx, request, headers['quote-subject']);
    // Filed under the business once the scope is found in the key's project, never as merely named.
    annotate({ businessId: scope.businessId });
    return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});

export const GET = defineRoute(listQuotesContract, {
  handle: async (ctx) => ({ data: await listEnvironmentQuotes(ctx, ctx.query) }),
});
