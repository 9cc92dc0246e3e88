import { defineRoute } from '@/lib/http/define-route';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { rotateEndpointSecret } from '@/lib/webhooks/rotate-endpoint-secret';
import { rotateEndpointSecretContract } from '../../contract';

// The verb checks again under its lock on the endpoint: rotations take turns.
export const POST = defineRoute(rotateEndpointSecretContract, {
  authorize: (ctx) => requireEndpoint(ctx, { endpointId: ctx.params.id }),
  handle: async (ctx) => ({ data: await rotateEndpointSecret(ctx, { endpointId: ctx.access.id, overlapMinutes: ctx.body.overlapMinutes }) }),
});
