import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { createApiKeyAsMember } from '@/lib/keys/create-api-key-as-member';
import { listApiKeys } from '@/lib/keys/list-api-keys';
import { createApiKeyContract, listApiKeysContract } from './contract';

export const POST = defineRoute(createApiKeyContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'api_keys:create'),
  handle: async (ctx) => ({ data: await createApiKeyAsMember(ctx, ctx.body) }),
});

export const GET = defineRoute(listApiKeysContract, async (ctx) => ({
  data: { apiKeys: await listApiKeys(ctx, ctx.query) },
}));
