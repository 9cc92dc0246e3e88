import type { DbOrTx } from '../db/client';
import { GroupCommit } from '../db/group-commit';
import { sqlRows } from '../db/sql';

// The rate limits' counters (table `rate_limits`, UNLOGGED): one row per limit and key, a fixed
// window each. `expire` is the window's end in epoch milliseconds; a spend after it starts a new
// window. Rows are named `<limit>:<key>`, as rate-limiter-flexible named them before.

/** One point spent: the counter's row and the window a new counter gets. */
export type Spend = { key: string; windowMs: number };

/** Where the spend landed: its place among the window's spends (1 = the first), and the window's end. */
export type Spent = { position: number; expireMs: number };

/**
 * The upsert that spends points: `rows` gives (key, points, expire) per counter, in key order (two
 * writers lock their rows in the same order and never deadlock); a counter whose window ended by
 * `nowMs` (SQL) starts again from the points given. Returns each counter's total after it, and
 * its window's end as text. Also spent inside a public quote's own statement (lib/quotes/store/write.ts).
 */
export function spendPointsSql(rows: string, nowMs: string): string {
  return `INSERT INTO rate_limits (key, points, expire)
  ${rows}
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN rate_limits.expire <= ${nowMs} THEN EXCLUDED.points ELSE rate_limits.points + EXCLUDED.points END,
    expire = CASE WHEN rate_limits.expire <= ${nowMs} THEN EXCLUDED.expire ELSE rate_limits.expire END
  RETURNING key, points, expire::text AS expire`;
}

/** Each counter of a batch once, with as many points as the batch spends on it. */
const SPEND_POINTS = spendPointsSql(
  'SELECT c.key, c.points, c.expire FROM json_to_recordset($1::json) AS c(key text, points int, expire bigint) ORDER BY c.key',
  '$2::bigint',
);

async function spendPoints(db: DbOrTx, spends: Spend[]): Promise<Spent[]> {
  const now = Date.now();
  const counters = new Map<string, { key: string; points: number; expire: number }>();
  // Each spend's rank among the batch's spends of its counter, in the order they arrived.
  const ranks = spends.map(({ key, windowMs }) => {
    const counter = counters.get(key) ?? { key, points: 0, expire: now + windowMs };
    counters.set(key, counter);
    return ++counter.points;
  });
  const rows = await sqlRows<{ key: string; points: number; expire: string }>(db, SPEND_POINTS, [
    JSON.stringify([...counters.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))),
    now,
  ]);
  const totals = new Map(rows.map((row) => [row.key, row]));
  return spends.map(({ key }, i) => {
    const total = totals.get(key)!;
    return { position: total.points - counters.get(key)!.points + ranks[i], expireMs: Number(total.expire) };
  });
}

const spenderOf = GroupCommit.perClient(spendPoints, { maxInFlight: 2, maxRows: 64 });

/**
 * Spends one point of a counter. The spends a process makes while two batches are in
 * PostgreSQL go together in the next (one statement for up to 64), as quotes do
 * (lib/db/group-commit.ts): under load a counted request costs a share of a round trip, not one.
 * Alone, a spend is written at once. `db` must run on its pool: counters are never part of a
 * transaction.
 */
export function spendPoint(db: DbOrTx, spend: Spend): Promise<Spent> {
  return spenderOf(db).submit(spend);
}

/** Counters whose window ended more than an hour ago: nothing reads them again. */
export async function forgetSpentCounters(db: DbOrTx, now: Date): Promise<number> {
  const rows = await sqlRows<{ n: number }>(
    db,
    `WITH gone AS (DELETE FROM rate_limits WHERE expire < $1::bigint RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [now.getTime() - 3_600_000],
  );
  return rows[0].n;
}
