import { defineRoute } from '@/lib/http/define-route';
import { verifyQuote } from '@/lib/quotes/verify-quote';
import { verifyQuoteContract } from '../../contract';

export const POST = defineRoute(verifyQuoteContract, async (ctx) => ({
  data: await verifyQuote(ctx, { id: ctx.params.id }),
}));
