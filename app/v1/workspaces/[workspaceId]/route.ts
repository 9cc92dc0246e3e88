import { defineRoute } from '@/lib/http/define-route';
import { requireRetentionChanger, setRequestLogRetention } from '@/lib/requestlog/retention';
import { updateWorkspaceContract } from '../contract';

export const PATCH = defineRoute(updateWorkspaceContract, {
  authorize: (ctx) => requireRetentionChanger(ctx, ctx.params.workspaceId),
  handle: async (ctx) => ({
    data: { workspace: await setRequestLogRetention(ctx, { workspaceId: ctx.params.workspaceId, days: ctx.body.requestLogRetentionDays }) },
  }),
});
