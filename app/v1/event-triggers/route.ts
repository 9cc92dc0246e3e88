import { defineRoute } from '@/lib/http/define-route';
import { triggerEvent } from '@/lib/triggers/trigger-event';
import { triggerEventContract } from './contract';

export const POST = defineRoute(triggerEventContract, async (ctx) => ({ data: { events: await triggerEvent(ctx, ctx.body) } }));
