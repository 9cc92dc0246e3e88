import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';

/**
 * Where each needle appears (case-insensitive, anywhere in a row's text, JSON columns included),
 * as `schema.table: rows`, over every table of the service's schemas: what an erasure must leave
 * empty (test/api/erasure.integration.test.ts, `npm run reliability -- --only erasure`).
 */
export async function tablesHolding(db: DbOrTx, needles: string[]): Promise<{ tables: number; found: Record<string, string[]> }> {
  const tables = await sqlRows<{ name: string }>(
    db,
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname IN ('public', 'request_log_partitions') AND c.relname <> '_prisma_migrations'`,
    [],
  );
  const found: Record<string, string[]> = Object.fromEntries(needles.map((n) => [n, []]));
  for (const { name } of tables) {
    const rows = await sqlRows<{ needle: string; n: number }>(
      db,
      `SELECT v AS needle, count(*)::int AS n FROM ${name} t, unnest($1::text[]) v WHERE strpos(lower(t::text), lower(v)) > 0 GROUP BY v`,
      [needles],
    );
    for (const row of rows) found[row.needle].push(`${name}: ${row.n}`);
  }
  return { tables: tables.length, found };
}
