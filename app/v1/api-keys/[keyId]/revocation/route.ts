import { defineRoute } from '@/lib/http/define-route';
import { requireKeyManager } from '@/lib/keys/key-authorization';
import { revokeApiKey } from '@/lib/keys/revoke-api-key';
import { revokeApiKeyContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(revokeApiKeyContract, {
  authorize: ({ db, principal, params }) => requireKeyManager(db, principal, params.keyId),
  handle: async ({ db, principal, access, now }) => ({ data: { apiKey: await revokeApiKey(db, principal, access.id, now) } }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
