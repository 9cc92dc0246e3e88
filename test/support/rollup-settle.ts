import type { testDb } from '../../lib/testing/factories';

/**
 * The settle time (ms) for a roll-up a test runs itself, so that it counts the test's own rows
 * (made up to the time `newestSql` selects) and leaves every later row to the next roll-up.
 * A roll-up moves one mark for the whole database the test files share: with no settle time at
 * all, the mark passes over rows other files are writing at that moment, which are then never
 * counted (experiment-guardrails once read no acceptances at all).
 */
export async function settleAfterNewest(db: ReturnType<typeof testDb>, newestSql: string, ...params: unknown[]): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ ms: number | null }[]>(`SELECT floor(extract(epoch FROM now() - (${newestSql})) * 1000)::int AS ms`, ...params);
  if (row.ms === null) throw new Error(`no rows to roll up: ${newestSql}`);
  // The roll-up's now() is later than this one, so its mark lands at least 1 ms past the newest row.
  return Math.max(0, row.ms - 1);
}
