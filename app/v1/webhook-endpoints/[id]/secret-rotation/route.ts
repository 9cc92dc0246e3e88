import { defineRoute } from '@/lib/http/define-route';
import { rotateEndpointSecret } from '@/lib/webhooks/manage-endpoints';
import { rotateEndpointSecretContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(rotateEndpointSecretContract, async ({ db, principal, params, body, now }) => ({
  data: await rotateEndpointSecret(db, principal, params.id, body.overlapMinutes, now),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
