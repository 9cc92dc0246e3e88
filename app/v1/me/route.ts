import { defineRoute } from '@/lib/http/define-route';
import { meContract } from '../workspaces/contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(meContract, async ({ principal }) => ({
  data: { user: { id: principal.userId, email: principal.email, name: principal.name } },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
