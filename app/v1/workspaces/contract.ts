import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

const workspaceSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    permissions: z.array(z.string()),
    projects: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        primaryBookId: z.uuid().nullable(),
        environments: z.array(z.object({ id: z.uuid(), kind: z.enum(['test', 'live']) })),
      }),
    ),
  })
  .meta({ id: 'Workspace' });

export const listWorkspacesContract = defineContract({
  method: 'GET',
  path: '/v1/workspaces',
  summary: 'Your workspaces, their projects and environments, and your permissions',
  tags: ['Workspaces'],
  auth: 'session',
  success: { status: 200, description: 'The workspaces.', schema: z.object({ workspaces: z.array(workspaceSchema) }) },
  errors: ['unauthorized'],
});

export const meContract = defineContract({
  method: 'GET',
  path: '/v1/me',
  summary: 'The signed-in person',
  tags: ['Workspaces'],
  auth: 'session',
  success: {
    status: 200,
    description: 'Who the session belongs to.',
    schema: z.object({ user: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() }) }),
  },
  errors: ['unauthorized'],
});
