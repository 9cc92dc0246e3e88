import { defineRoute } from '@/lib/http/define-route';
import { sendTestEvent } from '@/lib/webhooks/send-test-event';
import { requireEndpoint } from '@/lib/webhooks/require-endpoint';
import { sendTestEventContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(sendTestEventContract, {
  authorize: ({ db, principal, params }) => requireEndpoint(db, principal, params.id),
  handle: async ({ db, access, now }) => ({ data: { delivery: await sendTestEvent(db, access, now) } }),
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
