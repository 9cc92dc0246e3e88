// No imports: the portal's pages read these too.

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

/** A workspace admin holds every workspace permission: whom the portal names to ask, and who sets workspace-wide settings. */
export function holdsEveryPermission(permissions: readonly string[]): boolean {
  return WORKSPACE_PERMISSIONS.every((p) => permissions.includes(p));
}
