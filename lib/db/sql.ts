import type pg from 'pg';
import type { DbOrTx } from './client';

const pools = new WeakMap<object, pg.Pool>();

/** Remembers the pg pool behind a Prisma client (lib/db/client.ts builds both). */
export function registerPool(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/**
 * Hot-path SQL straight on the pg pool behind a Prisma client: the quote path's few statements
 * skip Prisma's per-query work, which costs more CPU than PostgreSQL spends running them.
 * Inside an interactive transaction (no pool is known for it) it goes through Prisma.
 * Write casts ($1::uuid, ::timestamptz, …) so that both paths bind parameters alike.
 */
export async function sqlRows<T>(db: DbOrTx, text: string, values: unknown[]): Promise<T[]> {
  const pool = pools.get(db);
  if (pool) return (await pool.query(text, values)).rows as T[];
  return db.$queryRawUnsafe<T[]>(text, ...values);
}
