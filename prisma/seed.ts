import { provisionTenant } from '../lib/tenants/provision-tenant';
import { demoBookArtifact } from '../lib/books/demo-book';
import { systemContext } from '../lib/context/verb-context';
import type { Db } from '../lib/db/client';
import { DEMO_WORKSPACE_SLUG } from '../lib/businesses/find-demo-business';


export type DemoTenant = { workspaceId: string; projectId: string; businessId: string; bookId: string };

/**
 * The demo workspace: a home-services business with its book published to Test and Live.
 * Idempotent: a second start finds the workspace by its slug and reuses it.
 */
export async function seedDemo(db: Db, now: Date): Promise<DemoTenant> {
  const existing = await db.workspace.findUnique({
    where: { slug: DEMO_WORKSPACE_SLUG },
    select: {
      id: true,
      projects: { take: 1, orderBy: { createdAt: 'asc' }, select: { id: true, primaryBookId: true } },
      businesses: { take: 1, orderBy: { createdAt: 'asc' }, select: { id: true } },
    },
  });
  if (existing?.projects[0]?.primaryBookId && existing.businesses[0]) {
    return {
      workspaceId: existing.id,
      projectId: existing.projects[0].id,
      businessId: existing.businesses[0].id,
      bookId: existing.projects[0].primaryBookId,
    };
  }
  const tenant = await provisionTenant(systemContext(db, 'seed', now), {
    workspace: { slug: DEMO_WORKSPACE_SLUG, name: 'Demo workspace' },
    projectName: 'Sparkle Home Services',
    business: { name: 'Sparkle Home Services', connectionKind: 'direct' },
    book: { key: 'home-services', name: 'Home services price book', artifact: demoBookArtifact },
    publishTo: ['test', 'live'],
  });
  return { workspaceId: tenant.workspaceId, projectId: tenant.projectId, businessId: tenant.businessId, bookId: tenant.bookId };
}
