import { defineRoute } from '@/lib/http/define-route';
import { requireKeyManager } from '@/lib/keys/key-authorization';
import { rotateApiKey } from '@/lib/keys/rotate-api-key';
import { rotateApiKeyContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(rotateApiKeyContract, {
  authorize: ({ db, principal, params }) => requireKeyManager(db, principal, params.keyId),
  handle: async ({ db, principal, access, body, now }) => ({
    data: await rotateApiKey(db, principal, { keyId: access.id, graceMinutes: body.graceMinutes }, now),
  }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
