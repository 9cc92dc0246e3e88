// The migrations against a real PostgreSQL: they match schema.prisma, re-running is a no-op,
// history tampering is refused, and the database enforces what Prisma cannot express.
import { randomUUID } from 'node:crypto';
import { appendFileSync, chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { diffDatabaseToSchemaInChildProcess, hasDrift } from '../../lib/db/schema-engine';
import { withClient } from '../../lib/testing/pg-client';

const MIGRATIONS = path.resolve('prisma/migrations');

let tmp: string;
let db: EmbeddedPostgresHandle;
let firstRun: { applied: string[] };

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'migrations-test-'));
  chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must traverse it
  db = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
  firstRun = await applyMigrations(db.url, MIGRATIONS);
}, 60_000);

afterAll(async () => {
  await db?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 30_000);

/** A fresh, empty database on the same server, for tests that must not disturb the main one. */
async function freshDatabaseUrl(): Promise<string> {
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  await withClient(db.url, (c) => c.query(`CREATE DATABASE ${name}`));
  return `postgresql://${db.user}:${db.password}@${db.host}:${db.port}/${name}`;
}


/** A copy of the migrations folder that a test may tamper with. */
function copyMigrations(): string {
  const dir = mkdtempSync(path.join(tmp, 'migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  return dir;
}

const migrationNames = (): string[] =>
  readdirSync(MIGRATIONS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('migrations', () => {
  it('applies every migration once, in order', () => {
    expect(firstRun.applied).toEqual(migrationNames());
  });

  it('leave no drift from schema.prisma', async () => {
    // The wasm schema engine needs --experimental-wasm-modules, so it runs in a child node.
    const sql = await diffDatabaseToSchemaInChildProcess(db);
    expect(hasDrift(sql), `migrations and schema.prisma disagree:\n${sql}`).toBe(false);
  }, 30_000);

  it('applies nothing the second time', async () => {
    expect(await applyMigrations(db.url, MIGRATIONS)).toEqual({ applied: [] });
  });

  it('refuses a migration edited after it was applied, but not a line-ending change', async () => {
    const dir = copyMigrations();
    const first = path.join(dir, migrationNames()[0]!, 'migration.sql');
    const original = readFileSync(first, 'utf8');
    writeFileSync(first, original.replaceAll('\n', '\r\n'));
    await expect(applyMigrations(db.url, dir)).resolves.toEqual({ applied: [] });
    writeFileSync(first, original);
    appendFileSync(first, '\n-- edited\n');
    await expect(applyMigrations(db.url, dir)).rejects.toThrow(/edited after it was applied/);
  });

  it('records a failed migration, rolls it back and refuses to go on', async () => {
    const url = await freshDatabaseUrl();
    const dir = copyMigrations();
    const broken = path.join(dir, '99999999999999_broken');
    cpSync(path.join(dir, migrationNames()[0]!), broken, { recursive: true });
    writeFileSync(path.join(broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n');
    await expect(applyMigrations(url, dir)).rejects.toThrow(/99999999999999_broken failed and was rolled back/);
    await expect(applyMigrations(url, dir)).rejects.toThrow(/failed earlier/);
    const leftover = await withClient(url, (c) => c.query("SELECT to_regclass('half_done') AS t"));
    expect(leftover.rows[0].t).toBeNull();
  });

  it('cancels the deliveries that endpoints deleted before deletion canceled them left pending', async () => {
    const url = await freshDatabaseUrl();
    const before = copyMigrations();
    for (const name of migrationNames().filter((n) => n >= '20261125025052')) rmSync(path.join(before, name), { recursive: true });
    await applyMigrations(url, before);
    const [workspace, project, environment, deleted, kept, event] = Array.from({ length: 6 }, () => randomUUID());
    const delivery = (endpoint: string, status: 'pending' | 'succeeded') =>
      withClient(url, async (c) =>
        (await c.query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at)
           VALUES (gen_random_uuid(), $1, $2, 'webhook.test', '${status}', ${status === 'pending' ? 'now()' : 'NULL'}) RETURNING id::text`,
          [endpoint, event],
        )).rows[0].id as string,
      );
    await withClient(url, async (c) => {
      await c.query("INSERT INTO workspaces (id, slug, name) VALUES ($1, 'w', 'W')", [workspace]);
      await c.query("INSERT INTO projects (id, workspace_id, name) VALUES ($1, $2, 'P')", [project, workspace]);
      await c.query("INSERT INTO environments (id, project_id, kind) VALUES ($1, $2, 'live')", [environment, project]);
      for (const [id, deletedAt] of [[deleted, 'now()'], [kept, 'NULL']]) {
        await c.query(
          `INSERT INTO webhook_endpoints (id, workspace_id, project_id, environment_id, url, secret_ciphertext, secret_prefix, secret_last4, deleted_at)
           VALUES ($1, $2, $3, $4, 'https://hooks.example.com', 'x', 'whsec_x', 'xxxx', ${deletedAt})`,
          [id, workspace, project, environment],
        );
      }
      await c.query("INSERT INTO outbox_events (id, type, workspace_id, data) VALUES ($1, 'webhook.test', $2, '{}')", [event, workspace]);
    });
    const stranded = await delivery(deleted, 'pending');
    const delivered = await delivery(deleted, 'succeeded');
    const waiting = await delivery(kept, 'pending');

    await applyMigrations(url, MIGRATIONS);
    const rows = await withClient(url, (c) =>
      c.query('SELECT id::text, status::text, next_attempt_at, canceled_at FROM webhook_deliveries ORDER BY created_at'),
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    expect(byId.get(stranded)).toMatchObject({ status: 'canceled', next_attempt_at: null, canceled_at: expect.any(Date) });
    expect(byId.get(delivered)).toMatchObject({ status: 'succeeded', canceled_at: null });
    expect(byId.get(waiting)).toMatchObject({ status: 'pending', next_attempt_at: expect.any(Date), canceled_at: null });
  });

  it('serialises concurrent callers: each migration is applied exactly once', async () => {
    const url = await freshDatabaseUrl();
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations(url, MIGRATIONS)));
    expect(runs.flatMap((r) => r.applied).sort()).toEqual(migrationNames());
    const rows = await withClient(url, (c) => c.query('SELECT count(*)::int AS n FROM _prisma_migrations'));
    expect(rows.rows[0].n).toBe(migrationNames().length);
  });
});

describe('database-enforced rules', () => {
  const ids = { workspace: randomUUID(), project: randomUUID(), book: randomUUID(), version: randomUUID(), intent: randomUUID(), receipt: randomUUID(), business: randomUUID(), publicationRecord: randomUUID() };

  beforeAll(async () => {
    await withClient(db.url, async (c) => {
      await c.query("INSERT INTO workspaces (id, slug, name) VALUES ($1, 'ws', 'Workspace')", [ids.workspace]);
      await c.query("INSERT INTO projects (id, workspace_id, name) VALUES ($1, $2, 'Project')", [ids.project, ids.workspace]);
      await c.query("INSERT INTO books (id, project_id, key, name) VALUES ($1, $2, 'main', 'Main')", [ids.book, ids.project]);
      await c.query(
        "INSERT INTO book_versions (id, book_id, number, artifact, artifact_hash) VALUES ($1, $2, 1, '{}', 'h')",
        [ids.version, ids.book],
      );
      const env = randomUUID();
      await c.query("INSERT INTO environments (id, project_id, kind) VALUES ($1, $2, 'test')", [env, ids.project]);
      await c.query(
        `INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, status, source,
           idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs)
         VALUES ($1, $2, $3, $4, $5, 'succeeded', 'api', 'api', 'k1', 'fp', 'corr', '{}')`,
        [ids.intent, ids.workspace, ids.project, env, ids.book],
      );
      await c.query(
        `INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, missing_inputs, idempotency_key,
           request_correlation_id, latency_ms)
         VALUES ($1, $2, 'succeeded', 'api', '{}', 'k1', 'corr', 3)`,
        [ids.receipt, ids.intent],
      );
      await c.query("INSERT INTO businesses (id, workspace_id, name) VALUES ($1, $2, 'Biz')", [ids.business, ids.workspace]);
      await c.query(
        `INSERT INTO publication_records (id, book_id, environment_id, book_version_id, impact) VALUES ($1, $2, $3, $4, '{"quotes": 3}')`,
        [ids.publicationRecord, ids.book, env, ids.version],
      );
    });
  });

  const mutations = [
    ['quote_receipts', 'UPDATE quote_receipts SET latency_ms = 4 WHERE id = $1', 'receipt'],
    ['quote_receipts', 'DELETE FROM quote_receipts WHERE id = $1', 'receipt'],
    ['book_versions', "UPDATE book_versions SET artifact_hash = 'x' WHERE id = $1", 'version'],
    ['book_versions', 'DELETE FROM book_versions WHERE id = $1', 'version'],
    ['publication_records', "UPDATE publication_records SET impact = '{}' WHERE id = $1", 'publicationRecord'],
    ['publication_records', 'DELETE FROM publication_records WHERE id = $1', 'publicationRecord'],
  ] as const;

  it.each(mutations)('%s refuses: %s', async (table, sql, key) => {
    await withClient(db.url, async (c) => {
      await expect(c.query(sql, [ids[key]])).rejects.toThrow(`${table} rows are immutable`);
      const { rowCount } = await c.query(`SELECT 1 FROM ${table} WHERE id = $1`, [ids[key]]);
      expect(rowCount).toBe(1);
    });
  });

  it.each(['quote_receipts', 'book_versions', 'publication_records'])('%s refuses TRUNCATE', async (table) => {
    await withClient(db.url, (c) => expect(c.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow('rows are immutable'));
  });

  it('allows at most one active connection per business', async () => {
    await withClient(db.url, async (c) => {
      const other = randomUUID();
      await c.query("INSERT INTO projects (id, workspace_id, name) VALUES ($1, $2, 'Other')", [other, ids.workspace]);
      const connect = (project: string, status: 'active' | 'inactive') =>
        c.query("INSERT INTO connections (id, business_id, project_id, kind, status) VALUES ($1, $2, $3, 'direct', $4)", [
          randomUUID(),
          ids.business,
          project,
          status,
        ]);
      await connect(ids.project, 'active');
      await expect(connect(other, 'active')).rejects.toThrow(/connections_one_active_per_business/);
      await expect(connect(other, 'inactive')).resolves.toBeDefined();
    });
  });
});

describe('embedded PostgreSQL', () => {
  it('restarts on the same data dir and keeps its data', async () => {
    await db.stop();
    db = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
    expect(await applyMigrations(db.url, MIGRATIONS)).toEqual({ applied: [] });
  });

  it('fails clearly when its port is taken', async () => {
    const port = await findFreePort();
    const thief = net.createServer().listen(port, '127.0.0.1');
    try {
      await expect(startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg-2'), port })).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      thief.close();
    }
  }, 30_000);
});
