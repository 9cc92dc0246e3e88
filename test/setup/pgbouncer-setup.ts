import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../../lib/db/migrate';
import { startPgBouncer } from '../../lib/testing/pgbouncer';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

/** The database of this run, created empty and migrated through the pooler. */
const DATABASE = 'quotes_pooled';

/**
 * in-process-setup.ts behind PgBouncer in transaction pooling mode: the service (in the test
 * workers, through the API's router), the tests and the migrations all reach PostgreSQL through
 * the pooler, with named prepared statements off. No build and no server. Runs as its own
 * `vitest run --project pgbouncer`: it sets process.env as the other setups do.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-pgbouncer-test-', { build: false });
  const bouncer = await startPgBouncer(database);
  try {
    const url = bouncer.url(DATABASE);
    const admin = new pg.Client({ connectionString: bouncer.url() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`).finally(() => admin.end());
    await applyMigrations(url, path.join(root, 'prisma/migrations'));
    const resultsDir = path.join(root, 'test-results');
    mkdirSync(resultsDir, { recursive: true });
    const serverLogFile = path.join(resultsDir, 'pgbouncer-service.log');
    rmSync(serverLogFile, { force: true });
    // Before any test worker starts: they inherit process.env.
    Object.assign(process.env, {
      TEST_DATABASE_URL: url,
      DATABASE_URL: url,
      DATABASE_PREPARED_STATEMENTS: 'false',
      LOG_FILE: serverLogFile,
      LOG_LEVEL: 'info',
      JOB_RUNNER: 'off',
      NEXTAUTH_URL: 'http://localhost',
    });
    project.provide('databaseUrl', url);
    project.provide('serverLogFile', serverLogFile);
  } catch (error) {
    await bouncer.stop();
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await bouncer.stop();
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
}
