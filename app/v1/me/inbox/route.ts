import { personInbox } from '@/lib/overview/person-inbox';
import { defineRoute } from '@/lib/http/define-route';
import { inboxContract } from '../../workspaces/contract';

export const GET = defineRoute(inboxContract, async (ctx) => ({ data: { inbox: await personInbox(ctx) } }));
