import { confirmCommitment } from '@/lib/accounts/confirm-commitment';
import { requireAccount } from '@/lib/accounts/require-account';
import { defineRoute } from '@/lib/http/define-route';
import { confirmCommitmentContract } from '../../../../../contract';

export const POST = defineRoute(confirmCommitmentContract, {
  authorize: (ctx) => requireAccount(ctx, { accountId: ctx.params.id }),
  handle: async (ctx) => ({
    data: await confirmCommitment(ctx, {
      quoteId: ctx.params.quoteId,
      externalRef: ctx.body.external_ref,
      shown: { signature: ctx.body.receipt_signature, total: ctx.body.expected_total },
    }),
  }),
});
