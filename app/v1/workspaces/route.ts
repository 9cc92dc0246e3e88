import { listWorkspaces } from '@/lib/accounts/list-workspaces';
import { defineRoute } from '@/lib/http/define-route';
import { listWorkspacesContract } from './contract';

export const GET = defineRoute(listWorkspacesContract, async (ctx) => ({
  data: { workspaces: await listWorkspaces(ctx) },
}));
