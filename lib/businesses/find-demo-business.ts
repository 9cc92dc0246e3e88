import type { VerbContext } from '../context/verb-context';
import { findFirstBusinessOfWorkspace } from './store';

/** The workspace `npm start` seeds on the embedded database (prisma/seed.ts). */
export const DEMO_WORKSPACE_SLUG = 'demo';

/** The demo business, when this database was seeded with it: the root page links its quote page. */
export async function findDemoBusiness({ db }: VerbContext): Promise<{ id: string; name: string } | null> {
  const business = await findFirstBusinessOfWorkspace(db, DEMO_WORKSPACE_SLUG);
  return business ? { id: business.id, name: business.displayName ?? business.name } : null;
}
