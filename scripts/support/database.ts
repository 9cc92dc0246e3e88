import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveDataRoot, startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { settings } from '../../lib/settings/settings';
import { migrationsText, progressLine } from './start-output';

export type ServiceDatabase = { url: string; embedded: boolean; stop(): Promise<void> };

/**
 * The database the service runs on: DATABASE_URL when set, otherwise an embedded
 * PostgreSQL in the git-ignored data folder. Migrations are applied either way; `progress`
 * prints a line for each (npm start, npm run dev).
 */
export async function openServiceDatabase(root: string, options: { progress?: boolean } = {}): Promise<ServiceDatabase> {
  const say = (line: string) => options.progress && console.log(line);
  let database: ServiceDatabase;
  let where = 'DATABASE_URL';
  const { DATABASE_URL, EMBEDDED_PG_PORT } = settings();
  if (DATABASE_URL) {
    database = { url: DATABASE_URL, embedded: false, stop: async () => undefined };
  } else {
    const dataDir = path.join(resolveDataRoot(root), 'pg');
    where = `embedded PostgreSQL (${path.relative(root, dataDir).startsWith('..') ? dataDir : path.relative(root, dataDir)})`;
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: EMBEDDED_PG_PORT,
    });
    database = { url: embedded.url, embedded: true, stop: () => embedded.stop() };
  }
  say(progressLine('Database', where));
  const migrations = path.join(root, 'prisma/migrations');
  const { applied } = await applyMigrations(database.url, migrations);
  const total = readdirSync(migrations).filter((name) => existsSync(path.join(migrations, name, 'migration.sql'))).length;
  say(progressLine('Migrations', migrationsText(applied.length, total)));
  // Other scripts (keys, audits) print their own output: a line only when something was applied.
  if (!options.progress && applied.length > 0) console.error(`Migrations: ${migrationsText(applied.length, total)}`);
  return database;
}

/**
 * The embedded mode's sealing key (SEALING_KEY: it seals webhook signing secrets and receipt
 * signing keys): made once, kept beside the data (in the file named for its former use). CLIs
 * that seal or open use it too.
 */
export function embeddedSealingKey(root: string): string {
  const file = path.join(root, '.data', 'webhook-secret.key');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}
