'use client';

import { useQuery } from '@tanstack/react-query';
import type { listMembersContract } from '@/app/v1/businesses/contract';
import { apiFetch } from './api';
import { ownerWords } from './admin-words';
import { AskAnAdmin } from './ask-an-admin';
import type { Business } from './queries';

/** The business's active owners, from its roster (the Members page's query: any member may read it). */
export function useBusinessOwners(business: Business) {
  const roster = useQuery({
    queryKey: ['businesses', business.id, 'members'],
    queryFn: () => apiFetch<typeof listMembersContract>(`/v1/businesses/${business.id}/members`),
  });
  const owners = (roster.data?.members ?? []).filter((m) => m.role === 'owner' && m.status === 'active').map(({ name, email }) => ({ name, email }));
  return { owners, settled: !roster.isPending };
}

/**
 * The sentence that names the owners of a business, for a notice about what they can do and the
 * person cannot; the workspace admins when it has no owner (or the roster cannot be read).
 */
export function AskAnOwner({ business }: { business: Business }) {
  const { owners, settled } = useBusinessOwners(business);
  if (!settled) return null;
  return <>{ownerWords(owners) ?? <AskAnAdmin workspaceId={business.workspaceId} />}</>;
}
