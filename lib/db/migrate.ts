// `prisma migrate deploy` in plain `pg`, so the service can migrate at start-up anywhere (the
// native Prisma engine is unavailable here). Same table, checksums and lock as Prisma, so either
// tool can take over from the other.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The advisory lock key Prisma Migrate uses: we also serialise with `prisma migrate deploy`. */
const PRISMA_MIGRATE_LOCK = 72707369;

// Prisma's own DDL for PostgreSQL (schema-engine sql-schema-connector, postgres flavour).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

interface LocalMigration {
  name: string;
  script: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
}

export class MigrationError extends Error {}

/**
 * Applies, in name order, each `<migrationsDir>/<name>/migration.sql` not yet recorded in
 * `_prisma_migrations`, each in its own transaction. Throws, applying nothing, when a recorded
 * migration failed or its file was edited since.
 */
export async function applyMigrations(databaseUrl: string, migrationsDir = 'prisma/migrations'): Promise<{ applied: string[] }> {
  const local = readLocalMigrations(path.resolve(migrationsDir));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied: string[] = [];
    // One migration per transaction, each taking Prisma's lock for itself: several instances may
    // start at once, and a transaction-mode pooler (PgBouncer) keeps only a transaction on one
    // server connection, so a session lock would stay behind on a connection others then use.
    for (;;) {
      const next = await applyNext(client, local);
      if (!next) return { applied };
      applied.push(next);
    }
  } finally {
    await client.end();
  }
}

/** Applies the first pending migration, under the lock; returns its name, or null when none is. */
async function applyNext(client: pg.Client, local: LocalMigration[]): Promise<string | null> {
  let migration: LocalMigration | undefined;
  try {
    await client.query('BEGIN');
    // Waits for `prisma migrate deploy` too (its session lock uses the same key).
    await client.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const rows = (await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at',
    )).rows;
    checkHistory(local, rows);
    const done = new Set(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => r.migration_name));
    migration = local.find((m) => !done.has(m.name));
    if (migration) {
      await client.query(migration.script);
      await client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 1)`,
        [randomUUID(), migrationChecksum(migration.script), migration.name],
      );
    }
    await client.query('COMMIT');
    return migration?.name ?? null;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (!migration) throw err;
    // Record the failure as Prisma does (finished_at NULL), so every instance refuses to go on
    // until someone looks; the transaction left the schema untouched.
    const message = err instanceof Error ? err.message : String(err);
    await client.query(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, logs) VALUES ($1, $2, $3, $4)',
      [randomUUID(), migrationChecksum(migration.script), migration.name, message],
    );
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${message}`, { cause: err });
  }
}

/** sha256 hex of the script, as Prisma records it. */
function migrationChecksum(script: string): string {
  return createHash('sha256').update(script).digest('hex');
}

/** Prisma accepts a file whose line endings changed (git autocrlf) as unedited. */
function matchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replaceAll('\r\n', '\n'), script.replaceAll('\n', '\r\n')];
  return variants.some((v) => migrationChecksum(v) === checksum);
}

function readLocalMigrations(dir: string): LocalMigration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, script: readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') }));
}

function checkHistory(local: LocalMigration[], rows: AppliedRow[]): void {
  const live = rows.filter((r) => !r.rolled_back_at);
  const failed = live.filter((r) => !r.finished_at);
  if (failed.length > 0) {
    const names = failed.map((r) => r.migration_name).join(', ');
    throw new MigrationError(
      `Migration ${names} failed earlier; refusing to apply more. Fix the database, then mark it ` +
        `rolled back (\`prisma migrate resolve --rolled-back <name>\` or set rolled_back_at). ` +
        `Last error: ${failed.at(-1)?.logs ?? 'unknown'}`,
    );
  }
  const byName = new Map(local.map((m) => [m.name, m]));
  // Recorded migrations missing locally are tolerated: an older instance may start after a
  // newer one migrated (rolling deploy).
  const edited = live.filter((r) => {
    const file = byName.get(r.migration_name);
    return file !== undefined && !matchesChecksum(file.script, r.checksum);
  });
  if (edited.length > 0) {
    throw new MigrationError(
      `Migration ${edited.map((r) => r.migration_name).join(', ')} was edited after it was applied ` +
        `(checksum mismatch). Restore the file and add a new migration instead.`,
    );
  }
}
