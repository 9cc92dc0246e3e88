import { businessAccess, type BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';

/**
 * The rules of the member routes, in one place:
 * - reading a business (roster, quotes): an active business member, or a workspace member
 *   with `businesses:manage`; anyone else gets 404, as if it did not exist;
 * - inviting: the business's owner (403 `not_business_owner`; strangers 404);
 * - changing or removing a membership: the business's owner only; anyone else, stranger or not,
 *   gets 403 `not_business_owner` (spec 4.2), which says nothing about whether the business exists;
 * - quoting: an active member of any role (spec 4.1); anyone else 404 `quote_scope_not_found`;
 * - branding: `businesses:manage`, or an owner or editor on a direct (self-run) connection; the
 *   publishing safeguard: `businesses:manage`, or an owner on a direct connection.
 */
export async function requireBusinessReader(
  { db, principal }: VerbContext<SessionPrincipal>,
  { businessId }: { businessId: string },
): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access || (!access.membership && !access.workspacePermissions.includes('businesses:manage'))) {
    throw new ServiceError('not_found', `Business ${businessId} does not exist.`);
  }
  return access;
}

export async function requireBusinessOwner(ctx: VerbContext<SessionPrincipal>, { businessId }: { businessId: string }): Promise<BusinessAccess> {
  const access = await requireBusinessReader(ctx, { businessId });
  if (access.membership?.role !== 'owner') {
    throw new ServiceError('not_business_owner', 'Only an owner of this business can change its members.');
  }
  return access;
}

export async function requireMembershipChanger(
  { db, principal }: VerbContext<SessionPrincipal>,
  { businessId }: { businessId: string },
): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access || access.membership?.role !== 'owner') {
    throw new ServiceError('not_business_owner', 'Only an owner of this business can change or remove its members.');
  }
  return access;
}

export async function requireBusinessMember(
  { db, principal }: VerbContext<SessionPrincipal>,
  { businessId }: { businessId: string },
): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access?.membership) throw new ServiceError('quote_scope_not_found', `You are not a member of business ${businessId}.`);
  return access;
}

export async function requireBusinessSettingsEditor(
  ctx: VerbContext<SessionPrincipal>,
  { businessId, setting }: { businessId: string; setting: { name: string; roles: readonly ('owner' | 'editor')[] } },
): Promise<BusinessAccess> {
  const access = await requireBusinessReader(ctx, { businessId });
  const selfRun = access.connection?.kind === 'direct';
  const role = access.membership?.role;
  const byRole = selfRun && role !== undefined && (setting.roles as readonly string[]).includes(role);
  if (!byRole && !access.workspacePermissions.includes('businesses:manage')) {
    const who = setting.roles.length > 1 ? `an ${setting.roles.join(' or ')}` : `the ${setting.roles[0]}`;
    throw new ServiceError('forbidden', `The ${setting.name} can be set by workspace members with "businesses:manage", or by ${who} of a self-run business.`);
  }
  return access;
}

/** Who sets what of a business (docs/operations.md). */
export const BRANDING = { name: 'branding', roles: ['owner', 'editor'] } as const;
export const PUBLISH_GUARD = { name: 'publishing safeguard', roles: ['owner'] } as const;
