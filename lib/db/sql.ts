import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DbOrTx } from './client';
import { processState } from '../process/state';
import { settings } from '../settings/settings';

declare module '../process/state' {
  interface ProcessState {
    /** The pg pool behind each Prisma client, for raw SQL. */
    pools?: WeakMap<object, pg.Pool>;
  }
}

// Per process, not per module copy: each copy must find the pool that whichever copy built the
// client registered (lib/process/state.ts).
const pools = (processState.pools ??= new WeakMap());

/** Remembers the pg pool behind a Prisma client (lib/db/client.ts builds both). */
export function registerPool(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** The pg pool behind a Prisma client, if `db` is one (an interactive transaction has none of its own). */
export function poolOf(db: DbOrTx): pg.Pool | undefined {
  return pools.get(db);
}

/** Whether `db` is a client whose statements go straight to its pool (not an interactive transaction). */
export function runsOnPool(db: DbOrTx): boolean {
  return pools.has(db);
}

let preparedStatements: boolean | undefined;

/**
 * DATABASE_PREPARED_STATEMENTS (default true), read once per process on first use. `false`
 * sends every statement unnamed: a transaction-mode pooler (PgBouncer before 1.21) hands each
 * transaction to any server connection, where a statement prepared on another one is unknown
 * or already exists.
 */
export function preparedStatementsEnabled(): boolean {
  if (preparedStatements === undefined) {
    preparedStatements = settings().DATABASE_PREPARED_STATEMENTS;
  }
  return preparedStatements;
}

const statementNames = new Map<string, string>();

/**
 * A stable name per statement text: PostgreSQL parses and plans a named statement once per
 * connection instead of on every call. Callers pass constant texts, so the set stays small.
 */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Hot-path SQL straight on the pg pool behind a Prisma client: the quote path's few statements
 * skip Prisma's per-query work, which costs more CPU than PostgreSQL spends running them, and
 * run as prepared statements (unless DATABASE_PREPARED_STATEMENTS=false). Inside an interactive
 * transaction (no pool is known for it) it goes through Prisma. Write casts ($1::uuid,
 * ::timestamptz, …) so that both paths bind alike. `prepared: false` sends a statement unnamed, so
 * that it is planned for its values each time (texts built from a query's filters; partitioned
 * tables whose best plan depends on the values).
 */
export async function sqlRows<T>(db: DbOrTx, text: string, values: unknown[], { prepared = true }: { prepared?: boolean } = {}): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRawUnsafe<T[]>(text, ...values);
  if (!prepared || !preparedStatementsEnabled()) return (await pool.query(text, values)).rows as T[];
  try {
    return (await pool.query({ name: statementName(text), text, values })).rows as T[];
  } catch (error) {
    // A migration changed a column a connection's prepared statement returns (0A000, "cached
    // plan must not change result type"): answer unprepared; the statement stays unusable on
    // that connection until the process restarts, as after any schema change.
    if ((error as { code?: string }).code !== '0A000') throw error;
    return (await pool.query(text, values)).rows as T[];
  }
}

/**
 * Reads a query's rows in batches through a server-side cursor, so that a large answer never
 * sits in memory whole; `onBatch` is awaited before the next batch is fetched. Inside an
 * interactive transaction (no pool is known for it) the rows come in one batch.
 */
export async function sqlBatches<T>(
  db: DbOrTx,
  text: string,
  values: unknown[],
  batchSize: number,
  onBatch: (rows: T[]) => Promise<void> | void,
): Promise<void> {
  const pool = pools.get(db);
  if (!pool) {
    await onBatch(await db.$queryRawUnsafe<T[]>(text, ...values));
    return;
  }
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query({ text: `DECLARE batch_cursor NO SCROLL CURSOR FOR ${text}`, values });
    for (;;) {
      const { rows } = await client.query(`FETCH ${Math.max(1, Math.floor(batchSize))} FROM batch_cursor`);
      if (rows.length === 0) break;
      await onBatch(rows as T[]);
    }
    await client.query('COMMIT');
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection whose rollback may have failed is not given back to others.
    client.release(failed ? true : undefined);
  }
}

/**
 * `(SELECT count(*) …)` of the rows a SELECT (`rows`) gives, reading no more than `cap` (SQL) of
 * them: a count that costs the same at any size (lib/overview/pipeline-count.ts says where).
 * Where the rows sit together in the table (a window of time), end `rows` with its index's
 * `ORDER BY`: under a LIMIT alone the planner may scan the table from its start, expecting the
 * matches to be spread evenly (lib/overview/store.ts, the count of prices running out).
 */
export function cappedCountSql(rows: string, cap: string): string {
  return `(SELECT count(*) FROM (${rows} LIMIT ${cap}) capped)`;
}
