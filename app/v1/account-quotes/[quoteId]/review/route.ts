import { reviewAccountQuote } from '@/lib/accounts/review-account-quote';
import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { requireBusinessManager } from '@/lib/members/business-authorization';
import { reviewWorkspaceAccountQuoteContract } from '../../contract';

export const POST = defineRoute(reviewWorkspaceAccountQuoteContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'businesses:manage'),
  handle: async (ctx) => {
    const { businessId, decision, reason } = ctx.body;
    const access = await requireBusinessManager(ctx, { businessId });
    return { data: { quote: await reviewAccountQuote(ctx, { access, environment: 'either', quoteId: ctx.params.quoteId, decision, reason: reason || null }) } };
  },
});
