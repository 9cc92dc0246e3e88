import { tenancyOfBusiness } from '@/lib/businesses/business-tenancy';
import { defineRoute } from '@/lib/http/define-route';
import { createPublicQuote } from '@/lib/quotes/create-public-quote';
import { quoteIdempotencyKey } from '@/lib/quotes/quote-idempotency-key';
import { visitorIdOf } from '@/lib/quotes/visitor-id';
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
    // The hosted page's visitor: the subject experiments assign by (set when the browser has none).
    const { visitorId, setCookie } = visitorIdOf(ctx.request);
    const { result, replayed, scope } = await createPublicQuote(ctx, request, visitorId);
    annotate(scope);
    const answerHeaders: Record<string, string> = {};
    if (replayed) answerHeaders['idempotent-replayed'] = 'true';
    if (setCookie) answerHeaders['set-cookie'] = setCookie;
    return { data: result, headers: Object.keys(answerHeaders).length > 0 ? answerHeaders : undefined };
  },
});
