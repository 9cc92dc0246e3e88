import { defineRoute } from '@/lib/http/define-route';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { replayExhaustedDeliveries } from '@/lib/webhooks/replay-exhausted-deliveries';
import { replayExhaustedContract } from '../../contract';

export const POST = defineRoute(replayExhaustedContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, access, body, now }) => ({ data: await replayExhaustedDeliveries(db, access, body, now) }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
