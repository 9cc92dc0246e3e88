/**
 * How long after its `created_at` (the request's clock reading) a row is counted by a rollup
 * (quotes by outcome, the funnel, experiments' arms): a row's statement commits within
 * milliseconds of it, and the request's clock may run a little behind the database's. A row that
 * commits later than this is left out of the rollup.
 */
export const ROLLUP_SETTLE_MS = 5 * 60_000;

/**
 * A rollup statement's `mark` CTE: the mark's row in rollup_marks, locked (two runs at once take
 * turns), as `since`, and `until`, the database's now less the settle time ($1, in ms). `until`
 * is cut to the millisecond, the precision the mark is kept at: stored as it was, it was rounded,
 * and a mark rounded down counted the rows of its last millisecond again in the next run.
 */
export const rollupMarkCte = (name: string) => `mark AS (
    SELECT through AS since, date_trunc('milliseconds', now() - make_interval(secs => $1::int / 1000.0)) AS until
      FROM rollup_marks WHERE name = '${name}' FOR UPDATE
  )`;

/** The CTE that moves the mark to `until`, when that is past it. */
export const moveRollupMarkCte = (name: string) => `moved AS (
    UPDATE rollup_marks m SET through = mark.until FROM mark WHERE m.name = '${name}' AND mark.until > mark.since RETURNING 1
  )`;
