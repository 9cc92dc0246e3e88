// Runs only in the `pgbouncer` project: TEST_DATABASE_URL is PgBouncer 1.18 in transaction
// pooling mode (5 server connections per database), and DATABASE_PREPARED_STATEMENTS=false.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDb, type DbOrTx } from '../../lib/db/client';
import { applyMigrations } from '../../lib/db/migrate';
import { registerPool, sqlRows } from '../../lib/db/sql';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../prisma/migrations');
const migrationNames = (): string[] =>
  readdirSync(MIGRATIONS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** An empty database of its own, created and reached through the pooler. */
async function freshDatabaseUrl(): Promise<string> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `bouncer_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  base.pathname = `/${name}`;
  return base.toString();
}

/** A plain pg pool (more clients than the pooler has server connections) that sqlRows uses. */
function pooledDb(url: string): DbOrTx {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  closers.push(() => pool.end());
  const db = {} as DbOrTx;
  registerPool(db, pool);
  return db;
}

const concurrently = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: n }, (_, i) => fn(i)));
const failures = (results: PromiseSettledResult<unknown>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason?.message ?? r.reason));

describe('behind PgBouncer in transaction pooling mode', () => {
  it('runs through the pooler, with named statements off', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    // PostgreSQL listens on another port than the one the tests connect to.
    const { rows } = await client.query<{ port: number }>('SELECT inet_server_port() AS port').finally(() => client.end());
    expect(rows[0]!.port).not.toBe(Number(url.port));
    expect(process.env.DATABASE_PREPARED_STATEMENTS).toBe('false');
  });

  it('answers 200 concurrent sqlRows calls', async () => {
    const db = pooledDb(await freshDatabaseUrl());
    const results = await concurrently(200, (i) => sqlRows<{ n: number }>(db, 'SELECT $1::int AS n', [i]));
    expect(failures(results)).toEqual([]);
    expect(results.map((r) => (r as PromiseFulfilledResult<{ n: number }[]>).value[0]!.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('drops the names a library gives its statements on the service pool', async () => {
    const handles = createDb(await freshDatabaseUrl());
    closers.push(() => handles.close());
    const results = await concurrently(200, (i) => handles.pool.query({ name: 'library-statement', text: 'SELECT $1::int AS n', values: [i] }));
    expect(failures(results)).toEqual([]);
  });

  it('applies each migration once when 3 instances migrate a fresh database at once', async () => {
    const url = await freshDatabaseUrl();
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations(url, MIGRATIONS)));
    expect(runs.flatMap((r) => r.applied).sort()).toEqual(migrationNames());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ migration_name: string; n: number }>(
        'SELECT migration_name, count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL GROUP BY 1 ORDER BY 1',
      );
      expect(rows).toEqual(migrationNames().map((name) => ({ migration_name: name, n: 1 })));
      // Prisma's lock key (72707369 fits in objid): no server connection kept it.
      const locks = await client.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = 72707369`);
      expect(locks.rowCount).toBe(0);
    } finally {
      await client.end();
    }
    expect(await applyMigrations(url, MIGRATIONS)).toEqual({ applied: [] });
  });

  it('fails with named statements (DATABASE_PREPARED_STATEMENTS unset): the setting matters', async () => {
    const db = pooledDb(await freshDatabaseUrl());
    const setting = process.env.DATABASE_PREPARED_STATEMENTS;
    vi.resetModules();
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    try {
      // A fresh copy of the module reads the setting anew; pools are registered process-wide.
      const fresh = await import('../../lib/db/sql');
      const results = await concurrently(200, (i) => fresh.sqlRows(db, 'SELECT $1::int AS n', [i]));
      const errors = failures(results);
      expect(errors.length).toBeGreaterThan(0);
      for (const message of errors) expect(message).toMatch(/prepared statement "q_[0-9a-f]+" (already exists|does not exist)/);
    } finally {
      process.env.DATABASE_PREPARED_STATEMENTS = setting;
      vi.resetModules();
    }
  });
});
