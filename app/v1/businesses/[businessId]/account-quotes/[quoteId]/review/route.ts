import { reviewAccountQuote } from '@/lib/accounts/review-account-quote';
import { defineRoute } from '@/lib/http/define-route';
import { QUOTE_REVIEW, requireBusinessDuty } from '@/lib/members/business-authorization';
import { reviewAccountQuoteContract } from '../../../../contract';

export const POST = defineRoute(reviewAccountQuoteContract, {
  authorize: (ctx) => requireBusinessDuty(ctx, { businessId: ctx.params.businessId, duty: QUOTE_REVIEW }),
  handle: async (ctx) => ({
    data: {
      quote: await reviewAccountQuote(ctx, {
        access: ctx.access,
        environment: 'live',
        quoteId: ctx.params.quoteId,
        decision: ctx.body.decision,
        reason: ctx.body.reason || null,
      }),
    },
  }),
});
