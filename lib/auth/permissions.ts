import type { DbOrTx } from '../db/client';
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

/** The workspaces a person is an active member of, with their permissions. */
export async function workspaceMemberships(db: DbOrTx, principal: SessionPrincipal) {
  return db.workspaceMember.findMany({
    where: { userId: principal.userId, status: 'active' },
    select: { workspaceId: true, permissions: true },
  });
}

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

/** What a person may do with a business: read in one query, checked by the caller. */
export async function businessAccess(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess | null> {
  const business = await db.business.findUnique({
    where: { id: businessId },
    select: {
      id: true,
      workspaceId: true,
      members: { where: { userId: principal.userId, status: 'active' }, select: { id: true, role: true } },
      connections: {
        where: { status: 'active' },
        select: { kind: true, projectId: true, project: { select: { environments: { where: { kind: 'live' }, select: { id: true } } } } },
        take: 1,
      },
      workspace: {
        select: { members: { where: { userId: principal.userId, status: 'active' }, select: { permissions: true } } },
      },
    },
  });
  if (!business) return null;
  noteTenancy({ workspaceId: business.workspaceId, businessId: business.id });
  return {
    business: { id: business.id, workspaceId: business.workspaceId },
    membership: business.members[0] ?? null,
    workspacePermissions: business.workspace.members[0]?.permissions ?? [],
    connection: business.connections[0]
      ? {
          kind: business.connections[0].kind,
          projectId: business.connections[0].projectId,
          liveEnvironmentId: business.connections[0].project.environments[0].id,
        }
      : null,
  };
}
