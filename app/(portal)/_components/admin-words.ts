import type { WorkspaceAdmin } from './queries';

const named = (admin: WorkspaceAdmin) => (admin.name ? `${admin.name} (${admin.email})` : admin.email);

/** "Ask Ada Admin (ada@example.com), a workspace admin, if you need it." — by name, so the person knows whom to write to. */
export function adminWords(admins: readonly WorkspaceAdmin[]): string {
  if (admins.length === 0) return 'Ask whoever runs your workspace if you need it.';
  if (admins.length === 1) return `Ask ${named(admins[0])}, a workspace admin, if you need it.`;
  const shown = admins.slice(0, 3).map(named);
  const more = admins.length > 3 ? ` or another of the ${admins.length} workspace admins` : '';
  return `Ask a workspace admin if you need it: ${shown.slice(0, -1).join(', ')}${more ? `, ${shown.at(-1)}${more}` : ` or ${shown.at(-1)}`}.`;
}

/** "Ask Olu Owner (olu@example.com), the owner of this business, if you need it." — null when it has no owner to ask. */
export function ownerWords(owners: readonly WorkspaceAdmin[]): string | null {
  if (owners.length === 0) return null;
  if (owners.length === 1) return `Ask ${named(owners[0])}, the owner of this business, if you need it.`;
  const shown = owners.slice(0, 3).map(named);
  const more = owners.length > 3 ? ` or another of its ${owners.length} owners` : '';
  return `Ask an owner of this business if you need it: ${shown.slice(0, -1).join(', ')}${more ? `, ${shown.at(-1)}${more}` : ` or ${shown.at(-1)}`}.`;
}
