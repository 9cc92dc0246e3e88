import { defineRoute } from '@/lib/http/define-route';
import { rotateApiKey } from '@/lib/keys/rotate-api-key';
import { rotateApiKeyContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(rotateApiKeyContract, async ({ db, principal, params, body, now }) => ({
  data: await rotateApiKey(db, principal, { keyId: params.keyId, graceMinutes: body.graceMinutes }, now),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(['POST']);
