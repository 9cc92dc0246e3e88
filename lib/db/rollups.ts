/**
 * How long after its `created_at` (the request's clock reading) a row is counted by a rollup
 * (quotes by outcome, the funnel, experiments' arms): a row's statement commits within
 * milliseconds of it, and the request's clock may run a little behind the database's. A row that
 * commits later than this is left out of the rollup.
 */
export const ROLLUP_SETTLE_MS = 5 * 60_000;
