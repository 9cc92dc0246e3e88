import type { Business, Workspace } from '../../../_components/queries';

/**
 * The API's rule for business settings (branding, the publishing safeguard): `businesses:manage`
 * in the workspace, or owner of a self-run business.
 */
export function mayEditBranding(business: Business, workspaces: Workspace[]): boolean {
  const manages = workspaces.some((w) => w.id === business.workspaceId && w.permissions.includes('businesses:manage'));
  const ownsSelfRun =
    business.yourMembership?.role === 'owner' && business.connection?.kind === 'direct' && business.connection.status === 'active';
  return manages || ownsSelfRun;
}
