import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';
import type { SessionPrincipal } from './principal';

/** Permissions a workspace member can hold. */
export const WORKSPACE_PERMISSIONS = [
  'businesses:manage',
  'api_keys:create',
  'books:edit',
  'books:publish',
  'webhooks:manage',
  'logs:read',
] as const;

export type WorkspacePermission = (typeof WORKSPACE_PERMISSIONS)[number];

/**
 * Requires an active workspace membership (and a permission, when named). A non-member learns
 * nothing: the resource answers 404 as if it did not exist; a member without the permission
 * gets 403 `forbidden`.
 */
export async function requireWorkspaceMember(
  db: DbOrTx,
  principal: SessionPrincipal,
  workspaceId: string,
  permission?: WorkspacePermission,
  notFoundMessage = 'No such resource.',
): Promise<{ permissions: string[] }> {
  const membership = await db.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: principal.userId } },
    select: { status: true, permissions: true },
  });
  if (!membership || membership.status !== 'active') throw new ServiceError('not_found', notFoundMessage);
  noteTenancy({ workspaceId });
  if (permission && !membership.permissions.includes(permission)) {
    throw new ServiceError('forbidden', `This needs the workspace permission "${permission}".`);
  }
  return { permissions: membership.permissions };
}

/**
 * The workspaces in which the person holds `permission`; 403 `forbidden` when there is none.
 * For routes whose target is in the body or that list across workspaces: the caller is refused
 * before the body is read, and the route still checks the one workspace the body names.
 */
export async function requirePermissionSomewhere(
  db: DbOrTx,
  principal: SessionPrincipal,
  permission: WorkspacePermission,
): Promise<string[]> {
  const memberships = await db.workspaceMember.findMany({
    where: { userId: principal.userId, status: 'active', permissions: { has: permission } },
    select: { workspaceId: true },
  });
  if (memberships.length === 0) throw new ServiceError('forbidden', `This needs the workspace permission "${permission}".`);
  return memberships.map((m) => m.workspaceId);
}

export type BusinessAccess = {
  business: { id: string; workspaceId: string };
  /** The caller's active business membership, if any. */
  membership: { id: string; role: 'owner' | 'editor' | 'viewer' } | null;
  /** The caller's permissions in the business's workspace (empty when not a member). */
  workspacePermissions: string[];
  /** The business's active connection, if any, with its project's Live environment. */
  connection: { kind: 'direct' | 'managed'; projectId: string; liveEnvironmentId: string } | null;
};

type BusinessAccessRow = {
  id: string;
  workspace_id: string;
  membership: BusinessAccess['membership'];
  workspace_permissions: string[] | null;
  connection: BusinessAccess['connection'];
};

// One statement, not a Prisma query with three relations: Prisma reads those concurrently, and
// inside a transaction (the member and branding changes check access in theirs) that means
// several queries at once on the transaction's one connection, which pg deprecates.
const BUSINESS_ACCESS_SQL = `SELECT b.id::text, b.workspace_id::text,
    (SELECT json_build_object('id', m.id, 'role', m.role) FROM business_members m
      WHERE m.business_id = b.id AND m.user_id = $2::uuid AND m.status = 'active') AS membership,
    (SELECT w.permissions FROM workspace_members w
      WHERE w.workspace_id = b.workspace_id AND w.user_id = $2::uuid AND w.status = 'active') AS workspace_permissions,
    (SELECT json_build_object('kind', c.kind, 'projectId', c.project_id, 'liveEnvironmentId', e.id)
      FROM connections c JOIN environments e ON e.project_id = c.project_id AND e.kind = 'live'
      WHERE c.business_id = b.id AND c.status = 'active' LIMIT 1) AS connection
  FROM businesses b WHERE b.id = $1::uuid`;

/** What a person may do with a business: read in one query, checked by the caller. */
export async function businessAccess(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess | null> {
  const [row] = await sqlRows<BusinessAccessRow>(db, BUSINESS_ACCESS_SQL, [businessId, principal.userId]);
  if (!row) return null;
  noteTenancy({ workspaceId: row.workspace_id, businessId: row.id });
  return {
    business: { id: row.id, workspaceId: row.workspace_id },
    membership: row.membership,
    workspacePermissions: row.workspace_permissions ?? [],
    connection: row.connection,
  };
}
