import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessMember, requireBusinessReader } from '@/lib/members/business-authorization';
import { listBusinessQuotes } from '@/lib/quotes/list-business-quotes';
import { createMemberQuote } from '@/lib/quotes/create-member-quote';
import { quoteIdempotencyKey } from '@/lib/quotes/quote-idempotency-key';
import { createMemberQuoteContract, listBusinessQuotesContract } from '../../contract';

export const POST = defineRoute(createMemberQuoteContract, {
  authorize: (ctx) => requireBusinessMember(ctx, { businessId: ctx.params.businessId }),
  handle: async (ctx) => {
    const { access, params, headers, body, annotate } = ctx;
    const request = { ...body, idempotencyKey: quoteIdempotencyKey(body, headers) };
    const { result, replayed, ...scope } = await createMemberQuote(ctx, { access, businessId: params.businessId, request });
    annotate(scope);
    return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});

export const GET = defineRoute(listBusinessQuotesContract, {
  authorize: (ctx) => requireBusinessReader(ctx, { businessId: ctx.params.businessId }),
  // A member route: the business's Live connection (spec 9); Test quotes are at /v1/quote-intents.
  handle: async (ctx) => ({ data: await listBusinessQuotes(ctx, { businessId: ctx.access.business.id, query: { ...ctx.query, environment: 'live' } }) }),
});
