import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { workspaceAdminSchema } from '@/lib/members/schemas';

const requestLogRetentionSchema = z
  .object({
    days: z.number().int().describe('Days the request log shows: searches, lookups, account listings and traces leave older requests out.'),
    setByWorkspace: z.boolean().describe('`false`: the service\'s default (REQUEST_LOG_RETENTION_DAYS), which the workspace follows.'),
  })
  .meta({ id: 'RequestLogRetention' });

const workspaceSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    permissions: z.array(z.string()),
    admins: z.array(workspaceAdminSchema).describe('Whom to ask for a permission: the members holding every workspace permission.'),
    requestLogRetention: requestLogRetentionSchema,
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
  operationId: 'listWorkspaces',
  method: 'GET',
  path: '/v1/workspaces',
  summary: 'Your workspaces, their projects and environments, and your permissions',
  tags: ['Workspaces'],
  auth: 'session',
  success: { status: 200, description: 'The workspaces.', schema: z.object({ workspaces: z.array(workspaceSchema) }) },
  errors: ['unauthorized'],
});

export const updateWorkspaceContract = defineContract({
  operationId: 'updateWorkspace',
  method: 'PATCH',
  path: '/v1/workspaces/{workspaceId}',
  summary: "Set how many days the workspace's request log is kept",
  description:
    'A workspace admin (every workspace permission). `requestLogRetentionDays` from 1 to 3650, or `null` for the service\'s default. Requests older than that are left out of every search, lookup, account listing and trace at once; they leave the disk when their day is dropped, after the longest retention any workspace keeps (docs/request-log.md).',
  tags: ['Workspaces'],
  auth: 'session',
  params: z.object({ workspaceId: z.uuid() }),
  body: z.strictObject({ requestLogRetentionDays: z.number().int().min(1).max(3650).nullable() }),
  success: {
    status: 200,
    description: 'The workspace\'s retention.',
    schema: z.object({ workspace: z.object({ id: z.uuid(), requestLogRetention: requestLogRetentionSchema }) }),
  },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const meContract = defineContract({
  operationId: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'The signed-in person',
  tags: ['Me'],
  auth: 'session',
  success: {
    status: 200,
    description: 'Who the session belongs to.',
    schema: z.object({ user: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() }) }),
  },
  errors: ['unauthorized'],
});

const inboxCountsSchema = z.object({ businessId: z.uuid(), heldQuotes: z.number().int(), newLeads: z.number().int() });

export const inboxContract = defineContract({
  operationId: 'getInbox',
  method: 'GET',
  path: '/v1/me/inbox',
  summary: 'What waits for you: held Live quotes you may review and new leads, per business',
  description:
    '`heldQuotes` counts Live account quotes awaiting review in businesses you may review (their owner, or `businesses:manage`); `newLeads` counts leads still `new` in businesses you can read, up to 1,000 for each business and in all (1,000: that many or more). The portal shows them beside Review and Leads.',
  tags: ['Me'],
  auth: 'session',
  success: {
    status: 200,
    description: 'The totals and each business\'s share.',
    schema: z.object({ inbox: z.object({ heldQuotes: z.number().int(), newLeads: z.number().int(), businesses: z.array(inboxCountsSchema) }) }),
  },
  errors: ['unauthorized'],
});
