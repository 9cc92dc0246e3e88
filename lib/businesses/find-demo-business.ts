import type { VerbContext } from '../context/verb-context';

/** The workspace `npm start` seeds on the embedded database (prisma/seed.ts). */
export const DEMO_WORKSPACE_SLUG = 'demo';

/** The demo business, when this database was seeded with it: the root page links its quote page. */
export async function findDemoBusiness({ db }: VerbContext): Promise<{ id: string; name: string } | null> {
  const business = await db.business.findFirst({
    where: { workspace: { slug: DEMO_WORKSPACE_SLUG } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, displayName: true },
  });
  return business ? { id: business.id, name: business.displayName ?? business.name } : null;
}
