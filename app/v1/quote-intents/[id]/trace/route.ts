import { defineRoute } from '@/lib/http/define-route';
import { traceQuote } from '@/lib/quotes/trace-quote';
import { traceQuoteContract } from '../../contract';

export const GET = defineRoute(traceQuoteContract, async (ctx) => ({
  data: await traceQuote(ctx, { id: ctx.params.id }),
}));
