import { defineRoute } from '@/lib/http/define-route';
import { sendTestEvent } from '@/lib/webhooks/manage-deliveries';
import { sendTestEventContract } from '../../contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const POST = defineRoute(sendTestEventContract, async ({ db, principal, params, now }) => ({
  data: { delivery: await sendTestEvent(db, principal, params.id, now) },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
