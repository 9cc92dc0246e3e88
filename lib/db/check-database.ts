import type { DbOrTx } from './client';

/** One round trip: throws when the database cannot be reached. */
export async function checkDatabase(db: DbOrTx): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
