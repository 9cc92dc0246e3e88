import { businessAccess, type BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';

/**
 * The rules of the member routes, in one place:
 * - reading a business (roster, quotes): an active business member, or a workspace member
 *   with `businesses:manage`; anyone else gets 404, as if it did not exist;
 * - inviting: the business's owner (403 `not_business_owner`; strangers 404);
 * - changing or removing a membership: the business's owner only; anyone else, stranger or not,
 *   gets 403 `not_business_owner` (spec 4.2), which says nothing about whether the business exists;
 * - quoting: an active member of any role (spec 4.1); anyone else 404 `quote_scope_not_found`;
 * - branding: `businesses:manage`, or an owner on a direct (self-run) connection.
 */
export async function requireBusinessReader(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access || (!access.membership && !access.workspacePermissions.includes('businesses:manage'))) {
    throw new ServiceError('not_found', `Business ${businessId} does not exist.`);
  }
  return access;
}

export async function requireBusinessOwner(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess> {
  const access = await requireBusinessReader(db, principal, businessId);
  if (access.membership?.role !== 'owner') {
    throw new ServiceError('not_business_owner', 'Only an owner of this business can change its members.');
  }
  return access;
}

export async function requireMembershipChanger(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access || access.membership?.role !== 'owner') {
    throw new ServiceError('not_business_owner', 'Only an owner of this business can change or remove its members.');
  }
  return access;
}

export async function requireBusinessMember(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access?.membership) throw new ServiceError('quote_scope_not_found', `You are not a member of business ${businessId}.`);
  return access;
}

export async function requireBusinessSettingsEditor(db: DbOrTx, principal: SessionPrincipal, businessId: string): Promise<BusinessAccess> {
  const access = await requireBusinessReader(db, principal, businessId);
  const directOwner = access.membership?.role === 'owner' && access.connection?.kind === 'direct';
  if (!directOwner && !access.workspacePermissions.includes('businesses:manage')) {
    throw new ServiceError(
      'forbidden',
      'Business settings (branding, the publishing safeguard) can be set by workspace members with "businesses:manage", or by the owner of a self-run business.',
    );
  }
  return access;
}
