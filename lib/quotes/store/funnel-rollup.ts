import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { moveRollupMarkCte, ROLLUP_SETTLE_MS, rollupMarkCte } from '../../db/rollups';
import { PRICED_CURRENCY_SQL, PRICED_TOTAL_MINOR_SQL } from './rows';

// The quotes' store (lib/quotes/store.ts): the daily rollups behind the funnel
// (GET /v1/businesses/{id}/funnel): outcomes, exact priced totals and unanswered questions per
// UTC day, business, environment and offering.

/** The funnel rollups' row in rollup_marks: the quotes made before its `through` are counted in them. */
export const QUOTE_FUNNEL_MARK = 'quote-funnel';

/** Stands for "no version" in the unanswered questions' key (a receipt without a pinned version). */
export const NO_BOOK_VERSION = '00000000-0000-0000-0000-000000000000';

/**
 * One row per quote as the funnel counts it, from `quote_intents qi JOIN quote_receipts r`. The
 * rollup and the funnel's read of the quotes made since the mark (lib/funnel/store.ts) share it,
 * so that they cannot count a quote differently. The offering is the one the request named ('' for none).
 */
export const FUNNEL_QUOTE_COLUMNS = `qi.business_id, qi.environment_id, (qi.created_at AT TIME ZONE 'UTC')::date AS day,
    coalesce(qi.inputs->>'offeringId', '') AS offering_id, r.outcome,
    coalesce(r.book_version_id, '${NO_BOOK_VERSION}'::uuid) AS book_version_id,
    ${PRICED_CURRENCY_SQL} AS currency, ${PRICED_TOTAL_MINOR_SQL} AS total_minor, r.missing_inputs`;

// Like the outcomes' rollup (store/rollup.ts): adds the quotes made from the mark up to the
// database's now less the settle time to the three tables and moves the mark, in one statement,
// under the mark's row lock, so each quote is counted once however many runs overlap.
const ROLL_UP_FUNNEL_SQL = `WITH ${rollupMarkCte(QUOTE_FUNNEL_MARK)}, quotes AS (
    SELECT ${FUNNEL_QUOTE_COLUMNS}
      FROM mark, quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
     WHERE mark.until > mark.since AND qi.created_at >= mark.since AND qi.created_at < mark.until AND qi.business_id IS NOT NULL
  ), outcomes AS (
    INSERT INTO quote_funnel_daily (business_id, environment_id, day, offering_id, outcome, quotes)
    SELECT business_id, environment_id, day, offering_id, outcome, count(*) FROM quotes GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (business_id, environment_id, day, offering_id, outcome) DO UPDATE SET quotes = quote_funnel_daily.quotes + EXCLUDED.quotes
    RETURNING 1
  ), prices AS (
    INSERT INTO quote_prices_daily (business_id, environment_id, day, offering_id, currency, total_minor, quotes)
    SELECT business_id, environment_id, day, offering_id, currency, total_minor, count(*) FROM quotes
     WHERE outcome = 'succeeded' AND currency IS NOT NULL AND total_minor IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (business_id, environment_id, day, offering_id, currency, total_minor) DO UPDATE SET quotes = quote_prices_daily.quotes + EXCLUDED.quotes
    RETURNING 1
  ), missing AS (
    INSERT INTO quote_missing_inputs_daily (business_id, environment_id, day, offering_id, book_version_id, input, quotes)
    SELECT q.business_id, q.environment_id, q.day, q.offering_id, q.book_version_id, m.input, count(*)
      FROM quotes q, unnest(q.missing_inputs) AS m(input) WHERE q.outcome = 'requires_input'
     GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (business_id, environment_id, day, offering_id, book_version_id, input) DO UPDATE SET quotes = quote_missing_inputs_daily.quotes + EXCLUDED.quotes
    RETURNING 1
  ), ${moveRollupMarkCte(QUOTE_FUNNEL_MARK)}
  SELECT (SELECT count(*) FROM mark)::int AS marks, (SELECT count(*) FROM quotes)::int AS quotes,
    (SELECT count(*) FROM outcomes)::int + (SELECT count(*) FROM prices)::int + (SELECT count(*) FROM missing)::int AS "rowsWritten"`;

/**
 * Counts the quotes made since the funnel's mark, up to `settleMs` before the database's now,
 * into the funnel's daily rollups; returns how many quotes it added.
 */
export async function rollUpQuoteFunnel(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  const [row] = await sqlRows<{ marks: number; quotes: number; rowsWritten: number }>(db, ROLL_UP_FUNNEL_SQL, [settleMs]);
  if (row.marks !== 1) throw new Error(`rollup_marks has no '${QUOTE_FUNNEL_MARK}' row: run the migrations`);
  return row.quotes;
}
