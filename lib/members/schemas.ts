import { z } from 'zod';

const businessRoleSchema = z.enum(['owner', 'editor', 'viewer']);

export const businessMemberSchema = z
  .object({
    id: z.uuid(),
    businessId: z.uuid(),
    userId: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: businessRoleSchema,
    status: z.enum(['active', 'invited', 'removed']),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BusinessMember' });

export const inviteMemberRequestSchema = z
  .strictObject({ email: z.email().max(320), role: businessRoleSchema })
  .meta({ id: 'InviteMemberRequest' });

export const updateMemberRequestSchema = z.strictObject({ role: businessRoleSchema }).meta({ id: 'UpdateMemberRequest' });

export type BusinessMemberView = z.infer<typeof businessMemberSchema>;

/** A workspace admin as the portal names them to someone who needs access: "Ask Ada Admin (ada@…)". */
export const workspaceAdminSchema = z.object({ name: z.string().nullable(), email: z.string() }).meta({ id: 'WorkspaceAdmin' });
