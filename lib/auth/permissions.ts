import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';
import type { SessionPrincipal } from './principal';
import type { WorkspacePermission } from './workspace-permissions';
import { findActiveWorkspaceIds, findWorkspaceMembership, readBusinessAccess, type BusinessAccessRow } from './store';

export { WORKSPACE_PERMISSIONS, type WorkspacePermission } from './workspace-permissions';

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
  const membership = await findWorkspaceMembership(db, workspaceId, principal.userId);
  if (!membership || membership.status !== 'active') throw new ServiceError('not_found', notFoundMessage);
  noteTenancy({ workspaceId });
  if (permission && !membership.permissions.includes(permission)) {
    throw new ServiceError('forbidden', `This needs the workspace permission "${permission}".`);
  }
  return { permissions: membership.permissions };
}

/**
 * The workspaces in which the person holds `permission` (or is a member at all, with none named);
 * 403 `forbidden` when there is none.
 * For routes whose target is in the body or that list across workspaces: the caller is refused
 * before the body is read, and the route still checks the one workspace the body names.
 */
export async function requirePermissionSomewhere(
  db: DbOrTx,
  principal: SessionPrincipal,
  permission?: WorkspacePermission,
): Promise<string[]> {
  const workspaceIds = await findActiveWorkspaceIds(db, principal.userId, permission);
  if (workspaceIds.length === 0) throw permissionNowhere(permission);
  return workspaceIds;
}

/** 403 `forbidden` for a person who holds `permission` (or is a member) in no workspace. */
export function permissionNowhere(permission?: WorkspacePermission): ServiceError {
  return new ServiceError('forbidden', permission ? `This needs the workspace permission "${permission}".` : 'This is for the members of a workspace.');
}

export type BusinessAccess = {
  business: { id: string; workspaceId: string };
  /** The caller's active business membership, if any. */
  membership: BusinessAccessRow['membership'];
  /** The caller's permissions in the business's workspace (empty when not a member). */
  workspacePermissions: string[];
  /** Whether the caller is an active member of the business's workspace (with or without permissions). */
  workspaceMember: boolean;
  /** The business's active connection, if any, with its project's Live environment. */
  connection: BusinessAccessRow['connection'];
};

/** What a person may do with a business: read in one query, checked by the caller. */
export async function businessAccess(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess | null> {
  return toBusinessAccess(await readBusinessAccess(db, businessId, principal.userId));
}

/** An access row (read alone, or within another statement by `businessAccessJson`) as the checks read it. */
export function toBusinessAccess(row: BusinessAccessRow | null): BusinessAccess | null {
  if (!row) return null;
  noteTenancy({ workspaceId: row.workspaceId, businessId: row.id });
  return {
    business: { id: row.id, workspaceId: row.workspaceId },
    membership: row.membership,
    workspacePermissions: row.workspacePermissions ?? [],
    workspaceMember: row.workspacePermissions !== null,
    connection: row.connection,
  };
}
