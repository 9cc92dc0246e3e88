import { tenancyOfBusiness } from '@/lib/businesses/business-tenancy';
import { clientAddress } from '@/lib/http/client-address';
import { defineRoute } from '@/lib/http/define-route';
import { acceptQuote } from '@/lib/leads/accept-quote';
import { getAcceptanceState } from '@/lib/leads/get-acceptance-state';
import { acceptQuoteContract, getAcceptanceStateContract } from '../../contract';

export const GET = defineRoute(getAcceptanceStateContract, async (ctx) => ({
  data: await getAcceptanceState(ctx, { quoteIntentId: ctx.params.quoteIntentId }),
}));

export const POST = defineRoute(acceptQuoteContract, {
  // Filed under the business the form names, refused or not, so that it sees what its page was sent.
  attributeFailure: async ({ db, body }) => {
    const businessId = (body as { businessId?: unknown } | null)?.businessId;
    return typeof businessId === 'string' ? tenancyOfBusiness(db, businessId) : null;
  },
  handle: async (ctx) => {
    const { acceptance, replayed, tenancy } = await acceptQuote(ctx, { quoteIntentId: ctx.params.quoteIntentId, request: ctx.body, client: clientAddress(ctx.request) });
    ctx.annotate(tenancy);
    return { data: { acceptance }, headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  },
});
