'use client';

import { adminWords } from './admin-words';
import { useBusinesses, useWorkspaces, type WorkspaceAdmin } from './queries';

/**
 * The workspace admins a person can ask for a permission or a role they lack: those of the given
 * workspace, or of every workspace and business the person sees. Empty while the lists load.
 */
export function useWorkspaceAdmins(workspaceId?: string): WorkspaceAdmin[] {
  const workspaces = useWorkspaces().data?.workspaces ?? [];
  const businesses = useBusinesses().data?.businesses ?? [];
  const admins = [
    ...workspaces.filter((w) => !workspaceId || w.id === workspaceId).flatMap((w) => w.admins),
    ...businesses.filter((b) => !workspaceId || b.workspaceId === workspaceId).flatMap((b) => b.workspaceAdmins),
  ];
  return [...new Map(admins.map((a) => [a.email, a])).values()];
}

/** The sentence that names whom to ask, for a notice about something the person may not do. */
export function AskAnAdmin({ workspaceId }: { workspaceId?: string }) {
  return <>{adminWords(useWorkspaceAdmins(workspaceId))}</>;
}
