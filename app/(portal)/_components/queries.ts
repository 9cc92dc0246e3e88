'use client';

import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

// Shapes of the /v1 answers the portal reads (the contracts in app/v1 are the source).
export type Workspace = {
  id: string;
  name: string;
  permissions: string[];
  /** Whom to ask for a permission: the members holding every workspace permission. */
  admins: WorkspaceAdmin[];
  projects: { id: string; name: string; primaryBookId: string | null; environments: { id: string; kind: 'test' | 'live' }[] }[];
  /** Days the request log shows; `setByWorkspace: false` when the workspace follows the service's default. */
  requestLogRetention: { days: number; setByWorkspace: boolean };
};
export type Business = {
  id: string;
  workspaceId: string;
  name: string;
  branding: {
    displayName: string;
    logoUrl: string | null;
    primaryColor: string | null;
    accentColor: string | null;
    nextStep: { label: string; url: string } | null;
    acceptanceConsent: string;
    acceptanceConsentIsDefault: boolean;
  };
  publishGuard: { changePercent: number; sharePercent: number };
  connection: { projectId: string; kind: 'direct' | 'managed'; status: 'active' | 'inactive' } | null;
  yourMembership: { id: string; role: 'owner' | 'editor' | 'viewer' } | null;
  /** Whom to ask for what a role does not allow: the admins of the business's workspace. */
  workspaceAdmins: WorkspaceAdmin[];
};
export type WorkspaceAdmin = { name: string | null; email: string };
type Publication = { versionId: string; number: number; publishedAt: string } | null;
export type BookSummary = {
  id: string;
  projectId: string;
  key: string;
  name: string;
  isPrimary: boolean;
  latestVersion: number | null;
  hasDraft: boolean;
  publications: { test: Publication; live: Publication };
  updatedAt: string;
};

export function useWorkspaces() {
  return useQuery({ queryKey: ['workspaces'], queryFn: () => apiFetch<{ workspaces: Workspace[] }>('/v1/workspaces') });
}

export function useBusinesses() {
  return useQuery({ queryKey: ['businesses'], queryFn: () => apiFetch<{ businesses: Business[] }>('/v1/businesses') });
}

export function useBooks() {
  return useQuery({ queryKey: ['books'], queryFn: () => apiFetch<{ books: BookSummary[] }>('/v1/books') });
}

export type Inbox = { heldQuotes: number; newLeads: number; businesses: { businessId: string; heldQuotes: number; newLeads: number }[] };

/** What waits for the person (GET /v1/me/inbox), asked again every minute and when the tab comes back. */
export function useInbox(enabled: boolean) {
  return useQuery({
    queryKey: ['inbox'],
    queryFn: () => apiFetch<{ inbox: Inbox }>('/v1/me/inbox').then((d) => d.inbox),
    enabled,
    refetchInterval: 60_000,
  });
}
