import { defineRoute } from '@/lib/http/define-route';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { rotateEndpointSecret } from '@/lib/webhooks/rotate-endpoint-secret';
import { rotateEndpointSecretContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

// The verb checks again under its lock on the endpoint: rotations take turns.
export const POST = defineRoute(rotateEndpointSecretContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, principal, access, body, now }) => ({ data: await rotateEndpointSecret(db, principal, access.id, body.overlapMinutes, now) }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
