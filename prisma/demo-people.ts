import { WORKSPACE_PERMISSIONS } from '../lib/auth/permissions';
import { createSession } from '../lib/auth/sessions';
import { systemContext } from '../lib/context/verb-context';
import type { Db } from '../lib/db/client';
import { addBusinessMember, addWorkspaceMember, ensureUser } from '../lib/members/add-members';
import type { DemoTenant } from './seed';

/** The demo's people: a workspace admin with every permission, and one business member per role. */
export const DEMO_PEOPLE = {
  workspaceAdmin: { email: 'admin@demo.test', name: 'Alex Admin' },
  owner: { email: 'owner@demo.test', name: 'Olivia Owner' },
  editor: { email: 'editor@demo.test', name: 'Eddie Editor' },
  viewer: { email: 'viewer@demo.test', name: 'Vera Viewer' },
} as const;

/**
 * Ensures the demo people and their memberships (idempotent), and opens a fresh session for
 * each: the tokens a script can send as `Authorization: Bearer <token>`. Embedded mode only.
 */
export async function seedDemoPeople(db: Db, tenant: DemoTenant, now: Date) {
  const sessions = {} as Record<keyof typeof DEMO_PEOPLE, string>;
  const ctx = systemContext(db, 'seed', now);
  for (const [role, person] of Object.entries(DEMO_PEOPLE) as [keyof typeof DEMO_PEOPLE, (typeof DEMO_PEOPLE)[keyof typeof DEMO_PEOPLE]][]) {
    const user = await ensureUser(ctx, person);
    if (role === 'workspaceAdmin') {
      await addWorkspaceMember(ctx, { workspaceId: tenant.workspaceId, userId: user.id, permissions: WORKSPACE_PERMISSIONS });
    } else {
      await addBusinessMember(ctx, { businessId: tenant.businessId, userId: user.id, role });
    }
    sessions[role] = await createSession(db, user.id, now);
  }
  return sessions;
}
