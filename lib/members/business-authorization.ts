import { businessAccess, requireWorkspaceMember, type BusinessAccess } from '../auth/permissions';
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
 * - branding and the publishing safeguard: `businesses:manage`, or the owner of a business on a
 *   direct (self-run) connection (spec 4.2); a member who may only read them gets 403 `forbidden`.
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

/**
 * The workspace routes about a business (`/v1/account-quotes`: an integration's Test quotes as
 * well as Live): workspace members with `businesses:manage` in the business's workspace. The
 * route has already refused (403) a person who holds that permission nowhere; to anyone else the
 * business does not exist (404). Business members reach its Live quotes on the member routes.
 */
export async function requireBusinessManager(
  { db, principal }: VerbContext<SessionPrincipal>,
  { businessId }: { businessId: string },
): Promise<BusinessAccess> {
  const access = await businessAccess(db, principal, businessId);
  if (!access || !access.workspacePermissions.includes('businesses:manage')) throw new ServiceError('not_found', `Business ${businessId} does not exist.`);
  return access;
}

/**
 * A business seen from its workspace (`GET /v1/quote-intents`, as traces are): any active member
 * of the workspace; to anyone else, business members included, it does not exist (404).
 */
export async function requireBusinessInWorkspace(ctx: VerbContext<SessionPrincipal>, { businessId }: { businessId: string }): Promise<BusinessAccess> {
  const notFound = `Business ${businessId} does not exist.`;
  const access = await businessAccess(ctx.db, ctx.principal, businessId);
  if (!access) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(ctx.db, ctx.principal, access.business.workspaceId, undefined, notFound);
  return access;
}

/**
 * What only some people may do to a business: workspace members with `businesses:manage`, or
 * members of the business in `roles` (for settings of the hosted page, only on a self-run
 * business: spec 4.2). Those who can read the business but not do this get 403 `forbidden`.
 */
export type BusinessDuty = { subject: string; verb: string; roles: readonly ('owner' | 'editor')[]; selfRunOnly: boolean };

export async function requireBusinessDuty(
  ctx: VerbContext<SessionPrincipal>,
  { businessId, duty }: { businessId: string; duty: BusinessDuty },
): Promise<BusinessAccess> {
  const access = await requireBusinessReader(ctx, { businessId });
  const role = access.membership?.role;
  const byRole = (!duty.selfRunOnly || access.connection?.kind === 'direct') && role !== undefined && (duty.roles as readonly string[]).includes(role);
  if (!byRole && !access.workspacePermissions.includes('businesses:manage')) {
    const who = duty.roles.length > 1 ? `an ${duty.roles.join(' or ')}` : `the ${duty.roles[0]}`;
    const of = duty.selfRunOnly ? 'a self-run business' : 'the business';
    throw new ServiceError('forbidden', `${duty.subject} can be ${duty.verb} by workspace members with "businesses:manage", or by ${who} of ${of}.`);
  }
  return access;
}

/** Who does what to a business (docs/operations.md, "Who can do what"). */
export const BRANDING: BusinessDuty = { subject: 'The branding', verb: 'set', roles: ['owner'], selfRunOnly: true };
export const PUBLISH_GUARD: BusinessDuty = { subject: 'The publishing safeguard', verb: 'set', roles: ['owner'], selfRunOnly: true };
export const LEAD_PIPELINE: BusinessDuty = { subject: 'Leads', verb: 'moved along', roles: ['owner', 'editor'], selfRunOnly: false };
export const LEAD_ERASURE: BusinessDuty = { subject: 'A lead\'s personal data', verb: 'erased', roles: ['owner'], selfRunOnly: false };
export const QUOTE_REVIEW: BusinessDuty = { subject: 'Held quotes', verb: 'reviewed', roles: ['owner'], selfRunOnly: false };
