import { listWorkspaces } from '@/lib/accounts/list-workspaces';
import { defineRoute } from '@/lib/http/define-route';
import { listWorkspacesContract } from './contract';
import { methodsNotAllowed } from '@/lib/http/method-not-allowed';

export const GET = defineRoute(listWorkspacesContract, async (ctx) => ({
  data: { workspaces: await listWorkspaces(ctx) },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
