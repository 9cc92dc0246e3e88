import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { moveRollupMarkCte, ROLLUP_SETTLE_MS, rollupMarkCte } from '../../db/rollups';

// The quotes' store (lib/quotes/store.ts): the daily rollup behind experiment results
// (GET /v1/books/{bookId}/experiments/{id}/results): per experiment, arm, UTC day and currency,
// the priced quotes (receipts and the account surface's quotes), the acceptances (hosted page)
// and the commitments (account surface), each counted from a mark of its own.

/** The experiment rollup's marks in rollup_marks: quotes (by their time) and acceptances (by theirs). */
export const EXPERIMENT_QUOTES_MARK = 'experiment-quotes';
export const EXPERIMENT_ACCEPTANCES_MARK = 'experiment-acceptances';
export const EXPERIMENT_ACCOUNT_QUOTES_MARK = 'experiment-account-quotes';
export const EXPERIMENT_COMMITMENTS_MARK = 'experiment-commitments';

/**
 * One row per priced quote of an experiment, from the intents alone (which carry the receipt's
 * experiment, arm and priced total, written with it): the rollup and the results' read of the
 * quotes made since the mark (lib/experiments/store.ts) share it. Only priced quotes count (n of
 * the statistics). No receipt is parsed: a receipt's JSON cost ~12 µs a quote to read a total.
 */
export const EXPERIMENT_QUOTE_FROM = `quote_intents qi`;
export const EXPERIMENT_QUOTE_COLUMNS = `qi.experiment_id, qi.experiment_arm AS arm,
    (qi.created_at AT TIME ZONE 'UTC')::date AS day, qi.currency, qi.total_minor::numeric AS total_minor`;
export const EXPERIMENT_QUOTE_WHERE = `qi.experiment_id IS NOT NULL AND qi.total_minor IS NOT NULL AND qi.currency IS NOT NULL`;

/** One row per acceptance of an experiment's quote, from `quote_acceptances qa` (which names the receipt's experiment and arm). */
export const EXPERIMENT_ACCEPTANCE_COLUMNS = `qa.experiment_id, qa.experiment_arm AS arm,
    (qa.created_at AT TIME ZONE 'UTC')::date AS day, qa.currency, qa.total_minor::numeric AS total_minor`;

/**
 * One row per priced account-surface quote of an experiment, from `account_quotes aq`. Its price
 * is `total.low_cents` (a range's lower end; a fixed price's low and high are equal).
 */
export const EXPERIMENT_ACCOUNT_QUOTE_COLUMNS = `(aq.experiment->>'experiment_id')::uuid AS experiment_id, aq.experiment->>'arm' AS arm,
    (aq.created_at AT TIME ZONE 'UTC')::date AS day, aq.response->>'currency' AS currency, aq.low_cents::numeric AS total_minor`;
export const EXPERIMENT_ACCOUNT_QUOTE_WHERE = `aq.experiment IS NOT NULL AND aq.response->>'decision' = 'priced'
    AND aq.low_cents IS NOT NULL AND aq.response->>'currency' IS NOT NULL`;

/** One row per commitment of an experiment's account quote, from `commitments c JOIN account_quotes aq`: the quote's price, committed. */
export const EXPERIMENT_COMMITMENT_COLUMNS = `(aq.experiment->>'experiment_id')::uuid AS experiment_id, aq.experiment->>'arm' AS arm,
    (c.confirmed_at AT TIME ZONE 'UTC')::date AS day, aq.response->>'currency' AS currency, aq.low_cents::numeric AS total_minor`;
export const EXPERIMENT_COMMITMENT_WHERE = EXPERIMENT_ACCOUNT_QUOTE_WHERE;

// Like the outcomes' rollup (store/rollup.ts): adds what was made from the mark up to the
// database's now less the settle time and moves the mark, in one statement, under the mark's row
// lock. Quotes and acceptances are two statements: one INSERT … ON CONFLICT may not touch a row twice
// (the mark's CTEs: lib/db/rollups.ts).
/**
 * One roll-up statement: `rows` (a SELECT of experiment_id, arm, day, currency, total_minor over
 * `mark`, bounded by mark.since and mark.until) added per (experiment, arm, day, currency) to the
 * `count` column and the `sum` of the totals, and their `sumOfSquares` when given.
 */
function rollUpStatement(mark: string, rows: string, into: { count: string; sum: string; sumOfSquares?: string }): string {
  const columns = [into.count, into.sum, ...(into.sumOfSquares ? [into.sumOfSquares] : [])];
  const values = ['count(*)', 'sum(total_minor)', ...(into.sumOfSquares ? ['sum(total_minor * total_minor)'] : [])];
  return `WITH ${rollupMarkCte(mark)}, rows AS (${rows}), added AS (
    INSERT INTO experiment_arm_daily (experiment_id, arm, day, currency, ${columns.join(', ')})
    SELECT experiment_id, arm, day, currency, ${values.join(', ')} FROM rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (experiment_id, arm, day, currency) DO UPDATE
      SET ${columns.map((c) => `${c} = experiment_arm_daily.${c} + EXCLUDED.${c}`).join(', ')}
    RETURNING 1
  ), ${moveRollupMarkCte(mark)}
  SELECT (SELECT count(*) FROM mark)::int AS marks, (SELECT count(*) FROM rows)::int AS counted`;
}

const QUOTES = { count: 'quotes', sum: 'quoted_price_sum' };

const ROLL_UP_QUOTES_SQL = rollUpStatement(
  EXPERIMENT_QUOTES_MARK,
  `SELECT ${EXPERIMENT_QUOTE_COLUMNS} FROM mark, ${EXPERIMENT_QUOTE_FROM}
    WHERE mark.until > mark.since AND qi.created_at >= mark.since AND qi.created_at < mark.until AND ${EXPERIMENT_QUOTE_WHERE}`,
  QUOTES,
);

const ROLL_UP_ACCEPTANCES_SQL = rollUpStatement(
  EXPERIMENT_ACCEPTANCES_MARK,
  `SELECT ${EXPERIMENT_ACCEPTANCE_COLUMNS} FROM mark, quote_acceptances qa
    WHERE mark.until > mark.since AND qa.created_at >= mark.since AND qa.created_at < mark.until AND qa.experiment_id IS NOT NULL`,
  { count: 'acceptances', sum: 'accepted_revenue_sum', sumOfSquares: 'accepted_revenue_sum_of_squares' },
);

const ROLL_UP_ACCOUNT_QUOTES_SQL = rollUpStatement(
  EXPERIMENT_ACCOUNT_QUOTES_MARK,
  `SELECT ${EXPERIMENT_ACCOUNT_QUOTE_COLUMNS} FROM mark, account_quotes aq
    WHERE mark.until > mark.since AND aq.created_at >= mark.since AND aq.created_at < mark.until AND ${EXPERIMENT_ACCOUNT_QUOTE_WHERE}`,
  QUOTES,
);

const ROLL_UP_COMMITMENTS_SQL = rollUpStatement(
  EXPERIMENT_COMMITMENTS_MARK,
  `SELECT ${EXPERIMENT_COMMITMENT_COLUMNS} FROM mark, commitments c JOIN account_quotes aq ON aq.id = c.account_quote_id
    WHERE mark.until > mark.since AND c.confirmed_at >= mark.since AND c.confirmed_at < mark.until AND ${EXPERIMENT_COMMITMENT_WHERE}`,
  { count: 'commitments', sum: 'committed_revenue_sum', sumOfSquares: 'committed_revenue_sum_of_squares' },
);

async function rollUp(db: DbOrTx, sql: string, mark: string, settleMs: number): Promise<number> {
  const [row] = await sqlRows<{ marks: number; counted: number }>(db, sql, [settleMs]);
  if (row.marks !== 1) throw new Error(`rollup_marks has no '${mark}' row: run the migrations`);
  return row.counted;
}

/**
 * Counts the experiments' priced quotes made since their mark, up to `settleMs` before the
 * database's now, into experiment_arm_daily; returns how many quotes it added.
 */
export async function rollUpExperimentQuotes(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  return rollUp(db, ROLL_UP_QUOTES_SQL, EXPERIMENT_QUOTES_MARK, settleMs);
}

/**
 * Counts the acceptances of experiments' quotes made since their mark into experiment_arm_daily;
 * returns how many it added. An acceptance's existence and amount never change (erasure nulls
 * contact details only), so it is counted once; its lead's status is read at results time.
 */
export async function rollUpExperimentAcceptances(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  return rollUp(db, ROLL_UP_ACCEPTANCES_SQL, EXPERIMENT_ACCEPTANCES_MARK, settleMs);
}

/** Counts the experiments' priced account-surface quotes made since their mark; returns how many it added. */
export async function rollUpExperimentAccountQuotes(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  return rollUp(db, ROLL_UP_ACCOUNT_QUOTES_SQL, EXPERIMENT_ACCOUNT_QUOTES_MARK, settleMs);
}

/**
 * Counts the commitments of experiments' account quotes confirmed since their mark; returns how
 * many it added. A commitment is confirmed once and never changes, so it is counted once.
 */
export async function rollUpExperimentCommitments(db: DbOrTx, settleMs = ROLLUP_SETTLE_MS): Promise<number> {
  return rollUp(db, ROLL_UP_COMMITMENTS_SQL, EXPERIMENT_COMMITMENTS_MARK, settleMs);
}
