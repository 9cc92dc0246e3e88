import { defineRoute } from '@/lib/http/define-route';
import { compareQuotes } from '@/lib/quotes/compare-quotes';
import { findInspectableQuote } from '@/lib/quotes/quote-access';
import { compareQuotesContract } from '../../contract';

export const GET = defineRoute(compareQuotesContract, {
  // Quote A before the query is read: a caller who may not see it gets 403/404 whatever `with` says.
  authorize: (ctx) => findInspectableQuote(ctx, ctx.params.id),
  handle: async (ctx) => ({ data: await compareQuotes(ctx, { quote: ctx.access, withId: ctx.query.with }) }),
});
