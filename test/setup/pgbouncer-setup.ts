import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findFreePort } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { startPgBouncer } from '../../lib/testing/pgbouncer';
import { startNextServer } from '../../scripts/support/next-server';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

/** The database of this run, created empty and migrated through the pooler. */
const DATABASE = 'quotes_pooled';

/**
 * global-setup.ts behind PgBouncer in transaction pooling mode: the service, the tests and the
 * migrations all reach PostgreSQL through the pooler, with named prepared statements off.
 * Runs as its own `vitest run --project pgbouncer`: it sets process.env as the other setup does.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-pgbouncer-test-');
  const bouncer = await startPgBouncer(database);
  let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
  try {
    const url = bouncer.url(DATABASE);
    const admin = new pg.Client({ connectionString: bouncer.url() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`).finally(() => admin.end());
    await applyMigrations(url, path.join(root, 'prisma/migrations'));
    // Before any server or test worker starts: they inherit process.env.
    Object.assign(process.env, { TEST_DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: 'false' });

    const resultsDir = path.join(root, 'test-results');
    mkdirSync(resultsDir, { recursive: true });
    const serverLogFile = path.join(resultsDir, 'pgbouncer-server.log');
    rmSync(serverLogFile, { force: true });
    server = await startNextServer({
      root,
      port: await findFreePort(),
      env: {
        DATABASE_URL: url,
        DATABASE_PREPARED_STATEMENTS: 'false',
        LOG_LEVEL: 'info',
        JOB_RUNNER: 'off',
        HTTP_HEADERS_TIMEOUT_MS: '3000',
        HTTP_REQUEST_TIMEOUT_MS: '5000',
      },
      logFile: serverLogFile,
    });
    project.provide('baseUrl', server.url);
    project.provide('databaseUrl', url);
    project.provide('serverLogFile', serverLogFile);
  } catch (error) {
    await bouncer.stop();
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await server?.stop();
    await bouncer.stop();
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
}
