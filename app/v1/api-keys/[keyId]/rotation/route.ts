import { defineRoute } from '@/lib/http/define-route';
import { requireKeyManager } from '@/lib/keys/key-authorization';
import { rotateApiKey } from '@/lib/keys/rotate-api-key';
import { rotateApiKeyContract } from '../../contract';

export const POST = defineRoute(rotateApiKeyContract, {
  authorize: (ctx) => requireKeyManager(ctx, { keyId: ctx.params.keyId }),
  handle: async (ctx) => ({
    data: await rotateApiKey(ctx, { keyId: ctx.access.id, graceMinutes: ctx.body.graceMinutes }),
  }),
});
