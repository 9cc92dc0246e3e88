import { requirePermissionSomewhere } from '@/lib/auth/permissions';
import { defineRoute } from '@/lib/http/define-route';
import { createApiKeyAsMember } from '@/lib/keys/create-api-key-as-member';
import { listApiKeys } from '@/lib/keys/list-api-keys';
import { createApiKeyContract, listApiKeysContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(createApiKeyContract, {
  authorize: ({ db, principal }) => requirePermissionSomewhere(db, principal, 'api_keys:create'),
  handle: async ({ db, principal, body, now }) => ({ data: await createApiKeyAsMember(db, principal, body, now) }),
});

export const GET = defineRoute(listApiKeysContract, async ({ db, principal, query, now }) => ({
  data: { apiKeys: await listApiKeys(db, principal, query, now) },
}));

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
