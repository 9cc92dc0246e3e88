'use client';

import type { Business, Workspace } from './queries';
import { useBusinesses, useWorkspaces } from './queries';

/**
 * What each person can do in the portal, in one place: the API's rules (docs/operations.md,
 * "Who can do what"), read from the person's workspace permissions and business roles. The
 * navigation shows the pages someone can use; a page they can only read says so at its top.
 */

/** How a person may use a page: change things, only read, or not at all (not in the navigation). */
export type Access = 'use' | 'read' | null;

export type PortalPage = 'overview' | 'funnel' | 'quotes' | 'review' | 'leads' | 'members' | 'branding' | 'apiKeys' | 'webhooks' | 'books' | 'requestLog' | 'traces';

export const PAGES: readonly { page: PortalPage; href: string; label: string }[] = [
  { page: 'overview', href: '/portal', label: 'Overview' },
  { page: 'funnel', href: '/portal/funnel', label: 'Funnel' },
  { page: 'quotes', href: '/portal/quotes', label: 'Quotes' },
  { page: 'review', href: '/portal/review', label: 'Review' },
  { page: 'leads', href: '/portal/leads', label: 'Leads' },
  { page: 'members', href: '/portal/members', label: 'Members' },
  { page: 'branding', href: '/portal/branding', label: 'Branding' },
  { page: 'books', href: '/portal/books', label: 'Price books' },
  { page: 'apiKeys', href: '/portal/api-keys', label: 'API keys' },
  { page: 'webhooks', href: '/portal/webhooks', label: 'Webhooks' },
  { page: 'requestLog', href: '/portal/request-logs', label: 'Request log' },
  { page: 'traces', href: '/portal/traces', label: 'Quote traces' },
];

/** Workspace permissions in words a business owner understands. */
export const PERMISSION_WORDS: Record<string, string> = {
  'businesses:manage': 'manage businesses: their branding and publishing safeguard, held quotes and leads',
  'api_keys:create': 'create, rotate and revoke API keys',
  'books:edit': 'edit price books',
  'books:publish': 'create versions and publish price books',
  'webhooks:manage': 'manage webhook endpoints and deliveries',
  'logs:read': 'search the request log',
};

/** Business roles and what each can do (the table in docs/operations.md). */
export const ROLE_WORDS: Record<'owner' | 'editor' | 'viewer', { name: string; can: string }> = {
  owner: { name: 'Owner', can: 'Reviews held quotes, works leads, manages the business’s members, branding and publishing safeguard' },
  editor: { name: 'Editor', can: 'Sees the business’s quotes and traces, and works its leads' },
  viewer: { name: 'Viewer', can: 'Sees the business’s quotes and traces, its members and settings' },
};

const holds = (workspaces: readonly Workspace[], permission: string) => workspaces.some((w) => w.permissions.includes(permission));

/** Reads a business's quotes, roster and settings: an active member, or `businesses:manage` in its workspace. */
export function mayReadBusiness(business: Business, workspaces: readonly Workspace[]): boolean {
  return business.yourMembership !== null || workspaces.some((w) => w.id === business.workspaceId && w.permissions.includes('businesses:manage'));
}

/** Branding (and the hosted page's next step): `businesses:manage`, or the owner of a self-run business (spec 4.2). */
export function mayEditBranding(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces) || (selfRun(business) && business.yourMembership?.role === 'owner');
}

/** Held quotes: approved or declined by the business's owner or `businesses:manage` (any connection). */
export function mayReviewQuotes(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces) || business.yourMembership?.role === 'owner';
}

/**
 * An integration's Test quotes of a business (the workspace route /v1/account-quotes): workspace
 * members with `businesses:manage` there. Owners review the Live ones only (spec 9).
 */
export function mayReviewTestQuotes(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces);
}

/** Leads: owners and editors move them along (viewers read); erasing personal data is the owner's or a manager's. */
export function mayWorkLeads(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces) || ['owner', 'editor'].includes(business.yourMembership?.role ?? '');
}

/** Erasing a lead's personal data: its owner or `businesses:manage` (LEAD_ERASURE). */
export function mayEraseLeads(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces) || business.yourMembership?.role === 'owner';
}

/** The publishing safeguard: `businesses:manage`, or the owner of a self-run business. */
export function mayEditSafeguard(business: Business, workspaces: readonly Workspace[]): boolean {
  return managesBusinesses(business, workspaces) || (selfRun(business) && business.yourMembership?.role === 'owner');
}

/** A workspace permission held in the business's own workspace (publishing its books, its keys, its webhooks). */
export function mayInWorkspaceOf(business: Business, workspaces: readonly Workspace[], permission: string): boolean {
  return workspaces.some((w) => w.id === business.workspaceId && w.permissions.includes(permission));
}

const managesBusinesses = (business: Business, workspaces: readonly Workspace[]) => mayInWorkspaceOf(business, workspaces, 'businesses:manage');
/** Run by the business itself (an active Direct connection): its owners set its branding and safeguard (spec 4.2). */
export const selfRun = (business: Business) => business.connection?.kind === 'direct' && business.connection.status === 'active';

/** Every page's access for a person with these workspaces and businesses. */
function pageAccess(workspaces: readonly Workspace[], businesses: readonly Business[]): Record<PortalPage, Access> {
  const readable = businesses.filter((b) => mayReadBusiness(b, workspaces));
  const inWorkspace = workspaces.length > 0;
  return {
    overview: 'use',
    funnel: readable.length > 0 ? 'use' : null,
    quotes: readable.length > 0 ? 'use' : null,
    review: readable.length === 0 ? null : readable.some((b) => mayReviewQuotes(b, workspaces)) ? 'use' : 'read',
    leads: readable.length === 0 ? null : readable.some((b) => mayWorkLeads(b, workspaces)) ? 'use' : 'read',
    members: readable.length === 0 ? null : readable.some((b) => b.yourMembership?.role === 'owner') ? 'use' : 'read',
    branding: readable.length === 0 ? null : readable.some((b) => mayEditBranding(b, workspaces) || mayEditSafeguard(b, workspaces)) ? 'use' : 'read',
    books: holds(workspaces, 'books:edit') || holds(workspaces, 'books:publish') ? 'use' : inWorkspace ? 'read' : null,
    apiKeys: holds(workspaces, 'api_keys:create') ? 'use' : inWorkspace ? 'read' : null,
    webhooks: holds(workspaces, 'webhooks:manage') ? 'use' : null,
    requestLog: holds(workspaces, 'logs:read') ? 'use' : null,
    traces: inWorkspace || businesses.some((b) => b.yourMembership !== null) ? 'use' : null,
  };
}

/**
 * The signed-in person's page access; null while their workspaces and businesses load. If they
 * cannot be read, every page is offered and the API decides (each page explains a refusal).
 */
export function usePageAccess(): Record<PortalPage, Access> | null {
  const workspaces = useWorkspaces();
  const businesses = useBusinesses();
  if (workspaces.isError || businesses.isError) return Object.fromEntries(PAGES.map((p) => [p.page, 'use'])) as Record<PortalPage, Access>;
  if (!workspaces.data || !businesses.data) return null;
  return pageAccess(workspaces.data.workspaces, businesses.data.businesses);
}
