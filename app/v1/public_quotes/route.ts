import { tenancyOfBusiness } from '@/lib/businesses/business-tenancy';
import { defineRoute } from '@/lib/http/define-route';
import { createPublicQuote } from '@/lib/quotes/create-public-quote';
import { quoteIdempotencyKey } from '@/lib/quotes/quote-idempotency-key';
import { createPublicQuoteContract } from './contract';

export const POST = defineRoute(createPublicQuoteContract, {
  // A request refused before it named a valid business still belongs to the business it named.
  attributeFailure: async ({ db, body }) => {
    const businessId = (body as { businessId?: unknown } | null)?.businessId;
    return typeof businessId === 'string' ? tenancyOfBusiness(db, businessId) : null;
  },
  handle: async (ctx) => {
    const { headers, body, annotate } = ctx;
    annotate({ businessId: body.businessId });
    const request = { ...body, idempotencyKey: quoteIdempotencyKey(body, headers) };
    const { result, replayed, scope } = await createPublicQuote(ctx, request);
    annotate(scope);
    return { data: result, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});
