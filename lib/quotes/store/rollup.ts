import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';

// The quotes' store (lib/quotes/store.ts): the hourly rollup of quotes by outcome.

/** The rollup's row in rollup_marks: quotes made before its `through` are counted in it. */
export const QUOTE_ROLLUP_MARK = 'quote-outcomes';

/**
 * How long after its `created_at` (the request's clock) a quote may still commit and be counted:
 * each run counts again the hours from this long before its previous mark.
 */
export const QUOTE_ROLLUP_SETTLE_MS = 5 * 60_000;

// Counts again, in full, the hours from the previous mark's hour (less the settle time) up to
// `through`, replaces what the rollup held for those hours and later ones, and sets the mark to
// `through`: then the rollup holds exactly the quotes made before the mark, whatever ran before
// (a late commit, two runs at once, an instance whose clock runs ahead). Quotes are never
// deleted, so an hour's count only changes while it is recent.
const ROLL_UP_SQL = `WITH mark AS (
    SELECT date_trunc('hour', least(through, $1::timestamptz) - make_interval(secs => $2::int / 1000.0), 'UTC') AS since
      FROM rollup_marks WHERE name = '${QUOTE_ROLLUP_MARK}'
  ), counted AS (
    SELECT qi.business_id, qi.environment_id, date_trunc('hour', qi.created_at, 'UTC') AS hour, r.outcome, count(*) AS quotes
      FROM mark, quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
     WHERE qi.created_at >= mark.since AND qi.created_at < $1::timestamptz AND qi.business_id IS NOT NULL
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ), upserted AS (
    INSERT INTO quote_outcomes_hourly (business_id, environment_id, hour, outcome, quotes)
    SELECT business_id, environment_id, hour, outcome, quotes FROM counted
    ON CONFLICT (business_id, environment_id, hour, outcome) DO UPDATE SET quotes = EXCLUDED.quotes
    WHERE quote_outcomes_hourly.quotes IS DISTINCT FROM EXCLUDED.quotes
    RETURNING 1
  ), removed AS (
    DELETE FROM quote_outcomes_hourly h USING mark WHERE h.hour >= mark.since
      AND NOT EXISTS (SELECT 1 FROM counted c WHERE (c.business_id, c.environment_id, c.hour, c.outcome) = (h.business_id, h.environment_id, h.hour, h.outcome))
    RETURNING 1
  ), moved AS (
    UPDATE rollup_marks SET through = $1::timestamptz WHERE name = '${QUOTE_ROLLUP_MARK}' RETURNING 1
  )
  SELECT ((SELECT count(*) FROM upserted) + (SELECT count(*) FROM removed))::int AS changed, (SELECT count(*) FROM moved)::int AS moved`;

/** Counts the quotes made before `through` into the hourly rollup; returns how many hours changed. */
export async function rollUpQuoteOutcomes(db: DbOrTx, through: Date): Promise<number> {
  const [row] = await sqlRows<{ changed: number; moved: number }>(db, ROLL_UP_SQL, [through, QUOTE_ROLLUP_SETTLE_MS]);
  // Made by the migration that made the table: its absence means the database is not migrated.
  if (row.moved !== 1) throw new Error(`rollup_marks has no '${QUOTE_ROLLUP_MARK}' row: run the migrations`);
  return row.changed;
}
