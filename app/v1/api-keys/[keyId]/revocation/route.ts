import { defineRoute } from '@/lib/http/define-route';
import { revokeApiKey } from '@/lib/keys/revoke-api-key';
import { revokeApiKeyContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(revokeApiKeyContract, async ({ db, principal, params, now }) => ({
  data: { apiKey: await revokeApiKey(db, principal, params.keyId, now) },
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
