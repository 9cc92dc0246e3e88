import { defineRoute } from '@/lib/http/define-route';
import { requireKeyManager } from '@/lib/keys/key-authorization';
import { revokeApiKey } from '@/lib/keys/revoke-api-key';
import { revokeApiKeyContract } from '../../contract';

export const POST = defineRoute(revokeApiKeyContract, {
  authorize: (ctx) => requireKeyManager(ctx, { keyId: ctx.params.keyId }),
  handle: async (ctx) => ({ data: { apiKey: await revokeApiKey(ctx, { keyId: ctx.access.id }) } }),
});
