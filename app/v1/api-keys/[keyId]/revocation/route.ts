import { defineRoute } from '@/lib/http/define-route';
import { revokeApiKey } from '@/lib/keys/revoke-api-key';
import { revokeApiKeyContract } from '../../contract';

export const POST = defineRoute(revokeApiKeyContract, async ({ db, principal, params, now }) => ({
  data: { apiKey: await revokeApiKey(db, principal, params.keyId, now) },
}));
