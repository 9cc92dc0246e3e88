import { defineRoute } from '@/lib/http/define-route';
import { getPublicQuote } from '@/lib/quotes/get-public-quote';
import { getPublicQuoteContract } from '../contract';

export const GET = defineRoute(getPublicQuoteContract, async (ctx) => {
  const { params, annotate } = ctx;
  const { result, businessId } = await getPublicQuote(ctx, { quoteIntentId: params.quoteIntentId });
  annotate({ businessId, environmentId: result.quoteIntent.environmentId, projectId: result.quoteIntent.projectId });
  return { data: result };
});
