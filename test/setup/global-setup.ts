import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePort, startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { ensureBuild, startNextServer } from '../../scripts/support/next-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    serverLogFile: string;
  }
}

/**
 * One real PostgreSQL (fresh, in a temp folder) and one production build of the service
 * (`next build` + `next start` on a free port) for the whole integration run. Tests speak
 * HTTP to it and build their own tenants; none relies on seeded ids.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-service-test-'));
  chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must traverse it
  const database = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
  await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
  ensureBuild(root);
  const resultsDir = path.join(root, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  const serverLogFile = path.join(resultsDir, 'integration-server.log');
  rmSync(serverLogFile, { force: true });
  const server = await startNextServer({
    root,
    port: await findFreePort(),
    env: { DATABASE_URL: database.url, LOG_LEVEL: 'info' },
    logFile: serverLogFile,
  });
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', database.url);
  process.env.TEST_DATABASE_URL = database.url; // inherited by the test workers
  project.provide('serverLogFile', serverLogFile);
  return async () => {
    await server.stop();
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
}
