'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { listBooksContract } from '@/app/v1/books/contract';
import type { listBusinessesContract } from '@/app/v1/businesses/contract';
import type { inboxContract, listWorkspacesContract } from '@/app/v1/workspaces/contract';
import { apiFetch } from './api';

// The /v1 answers the portal reads, typed by their contracts (app/v1): never restated here.
export type Workspace = AnswerOf<typeof listWorkspacesContract>['workspaces'][number];
export type Business = AnswerOf<typeof listBusinessesContract>['businesses'][number];
export type WorkspaceAdmin = Business['workspaceAdmins'][number];
export type BookSummary = AnswerOf<typeof listBooksContract>['books'][number];
export type Inbox = AnswerOf<typeof inboxContract>['inbox'];

export function useWorkspaces() {
  return useQuery({ queryKey: ['workspaces'], queryFn: () => apiFetch<typeof listWorkspacesContract>('/v1/workspaces') });
}

export function useBusinesses() {
  return useQuery({ queryKey: ['businesses'], queryFn: () => apiFetch<typeof listBusinessesContract>('/v1/businesses') });
}

export function useBooks() {
  return useQuery({ queryKey: ['books'], queryFn: () => apiFetch<typeof listBooksContract>('/v1/books') });
}

/** What waits for the person (GET /v1/me/inbox), asked again every minute and when the tab comes back. */
export function useInbox(enabled: boolean) {
  return useQuery({
    queryKey: ['inbox'],
    queryFn: () => apiFetch<typeof inboxContract>('/v1/me/inbox').then((d) => d.inbox),
    enabled,
    refetchInterval: 60_000,
  });
}
