import { defineRoute } from '@/lib/http/define-route';
import { meContract } from '../workspaces/contract';

export const GET = defineRoute(meContract, async ({ principal }) => ({
  data: { user: { id: principal.userId, email: principal.email, name: principal.name } },
}));
