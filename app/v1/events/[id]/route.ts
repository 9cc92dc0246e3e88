import { defineRoute } from '@/lib/http/define-route';
import { findTestEvent } from '@/lib/webhooks/event-stream';
import { getEventContract } from './contract';

export const GET = defineRoute(getEventContract, async ({ db, principal, params }) => ({
  data: { event: await findTestEvent(db, principal, params.id) },
}));
