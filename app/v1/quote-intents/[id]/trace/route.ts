import { defineRoute } from '@/lib/http/define-route';
import { traceQuote } from '@/lib/quotes/trace-quote';
import { traceQuoteContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(traceQuoteContract, async (ctx) => ({
  data: await traceQuote(ctx, { id: ctx.params.id }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
