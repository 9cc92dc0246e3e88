'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type {
  createBookContract,
  createVersionContract,
  getBookContract,
  getVersionContract,
  listPublicationsContract,
  publishContract,
  saveDraftContract,
} from '@/app/v1/books/contract';
import { apiFetch } from '../../../_components/api';
import { useWorkspaces } from '../../../_components/queries';

// The /v1/books answers the editor reads, typed by their contract (app/v1/books/contract.ts).
export type BookDetail = AnswerOf<typeof getBookContract>['book'];
export type BookVersionSummary = AnswerOf<typeof createVersionContract>['version'];
export type BookVersion = AnswerOf<typeof getVersionContract>['version'];
export type SaveDraftResult = AnswerOf<typeof saveDraftContract>;
export type EnvironmentKind = 'test' | 'live';

// ['books'] is the list (see ../../_components/queries.ts); one book sits under it, so
// invalidating ['books'] refreshes both. Versions are immutable and live apart.
const bookKey = (bookId: string) => ['books', bookId] as const;

export function useBook(bookId: string) {
  return useQuery({
    queryKey: bookKey(bookId),
    queryFn: () => apiFetch<typeof getBookContract>(`/v1/books/${bookId}`).then((d) => d.book),
  });
}

/** A version never changes once created, so it is fetched once. */
export function useBookVersion(bookId: string, versionId: string | undefined) {
  return useQuery({
    queryKey: ['book-versions', bookId, versionId],
    queryFn: () => apiFetch<typeof getVersionContract>(`/v1/books/${bookId}/versions/${versionId}`).then((d) => d.version),
    enabled: versionId !== undefined,
    staleTime: Infinity,
  });
}

/** What the signed-in person may do with books of a project. */
export function useBookPermissions(projectId: string | undefined) {
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.workspaces.find((w) => w.projects.some((p) => p.id === projectId));
  const permissions = workspace?.permissions ?? [];
  return {
    isPending: workspaces.isPending,
    error: workspaces.error,
    canEdit: permissions.includes('books:edit'),
    canPublish: permissions.includes('books:publish'),
  };
}

export function useCreateBook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { projectId: string; key: string; name: string; makePrimary: boolean }) =>
      apiFetch<typeof createBookContract>('/v1/books', { method: 'POST', body: input }).then((d) => d.book),
    onSuccess: () => client.invalidateQueries({ queryKey: ['books'] }),
  });
}

export function useSaveDraft(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (artifact: Record<string, unknown>) =>
      apiFetch<typeof saveDraftContract>(`/v1/books/${bookId}/draft`, { method: 'PUT', body: { artifact } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['books'] }),
  });
}

export function useCreateVersion(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<typeof createVersionContract>(`/v1/books/${bookId}/versions`, { method: 'POST', body: {} }).then((d) => d.version),
    onSuccess: () => client.invalidateQueries({ queryKey: ['books'] }),
  });
}

export function usePublish(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { versionId: string; environment: EnvironmentKind; impactAsOf?: string; confirmation?: string }) =>
      apiFetch<typeof publishContract>(`/v1/books/${bookId}/publications`, { method: 'POST', body: input }).then((d) => d.book),
    onSuccess: (book) => {
      client.setQueryData(bookKey(bookId), book);
      return client.invalidateQueries({ queryKey: ['books'] });
    },
  });
}

export type PublicationRecord = AnswerOf<typeof listPublicationsContract>['publications'][number];

/** Who published which version where, newest first (the first page). */
export function usePublicationRecords(bookId: string) {
  return useQuery({
    queryKey: ['books', bookId, 'publications'],
    queryFn: () => apiFetch<typeof listPublicationsContract>(`/v1/books/${bookId}/publications?limit=20`),
  });
}
