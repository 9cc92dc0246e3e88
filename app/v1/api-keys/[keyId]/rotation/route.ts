import { defineRoute } from '@/lib/http/define-route';
import { rotateApiKey } from '@/lib/keys/rotate-api-key';
import { rotateApiKeyContract } from '../../contract';

export const POST = defineRoute(rotateApiKeyContract, async ({ db, principal, params, body, now }) => ({
  data: await rotateApiKey(db, principal, { keyId: params.keyId, graceMinutes: body.graceMinutes }, now),
}));
