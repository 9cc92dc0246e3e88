import type { DbOrTx } from '../db/client';
import { compiled } from './published-version';

/**
 * How lists name a quote's offering: as the version that priced it names it, priced or not (a
 * quote that needs more answers asked for a service all the same). Not the receipt's first line,
 * which reads "Window cleaning (Commercial …)" when a base override applied. A page names few
 * versions, and compiled versions stay in memory. Null for no offering, or one the version does
 * not have: the portal says so in words.
 */
export async function offeringLabels(db: DbOrTx, versionIds: readonly (string | null)[]) {
  const ids = [...new Set(versionIds.filter((id): id is string => id !== null))];
  const books = new Map(await Promise.all(ids.map(async (id) => [id, await compiled(db, id)] as const)));
  return (versionId: string | null, offeringId: string) => (versionId && books.get(versionId)?.offerings.get(offeringId)?.label) || null;
}
