import type { DbOrTx } from '../../db/client';
import { moveRollupMarkCte, ROLLUP_SETTLE_MS, rollupMarkCte } from '../../db/rollups';
import { sqlRows } from '../../db/sql';

// The quotes' store (lib/quotes/store.ts): the hourly rollup of quotes by outcome.

/** The rollup's row in rollup_marks: the quotes made before its `through` are counted in it. */
export const QUOTE_ROLLUP_MARK = 'quote-outcomes';


// Adds the quotes made from the mark up to the database's now less the settle time, and moves
// the mark there, in one statement: each quote is counted once, and a run reads about a minute
// of quotes whatever the traffic. The mark's row is locked (FOR UPDATE), so two runs at once take
// turns, the second from where the first left it (READ COMMITTED re-reads the locked row). The
// database's clock, not the job's, sets the mark: an instance whose clock runs ahead cannot move
// it past quotes still to commit.
const ROLL_UP_SQL = `WITH ${rollupMarkCte(QUOTE_ROLLUP_MARK)}, counted AS (
    SELECT qi.business_id, qi.environment_id, date_trunc('hour', qi.created_at, 'UTC') AS hour, r.outcome, count(*) AS quotes
      FROM mark, quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
     WHERE mark.until > mark.since AND qi.created_at >= mark.since AND qi.created_at < mark.until AND qi.business_id IS NOT NULL
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ), added AS (
    INSERT INTO quote_outcomes_hourly (business_id, environment_id, hour, outcome, quotes)
    SELECT business_id, environment_id, hour, outcome, quotes FROM counted
    ON CONFLICT (business_id, environment_id, hour, outcome) DO UPDATE SET quotes = quote_outcomes_hourly.quotes + EXCLUDED.quotes
    RETURNING 1
  ), ${moveRollupMarkCte(QUOTE_ROLLUP_MARK)}
  SELECT (SELECT count(*) FROM mark)::int AS marks, (SELECT count(*) FROM added)::int AS hours,
    COALESCE((SELECT sum(quotes) FROM counted), 0)::int AS quotes`;

/**
 * Counts the quotes made since the mark, up to `settleMs` before the database's now, into the
 * hourly rollup; returns how many quotes it added.
 */
export async function rollUpQuoteOutcomes(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  const [row] = await sqlRows<{ marks: number; hours: number; quotes: number }>(db, ROLL_UP_SQL, [settleMs]);
  // Made by the migration that made the table: its absence means the database is not migrated.
  if (row.marks !== 1) throw new Error(`rollup_marks has no '${QUOTE_ROLLUP_MARK}' row: run the migrations`);
  return row.quotes;
}
