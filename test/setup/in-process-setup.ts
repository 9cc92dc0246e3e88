import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

/**
 * The `integration` project: one real PostgreSQL (fresh, in a temp folder) and no build and no
 * server. Tests reach the service in-process through the API's router (test/support/service-fetch.ts),
 * in their own worker, configured here as a server would be; its log lines go to a file the
 * tests read, as they read a server's.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-inproc-', { build: false });
  const resultsDir = path.join(root, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  const serverLogFile = path.join(resultsDir, 'in-process-service.log');
  rmSync(serverLogFile, { force: true });
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    LOG_FILE: serverLogFile,
    LOG_LEVEL: 'info',
    // The tests' workers are the service: no job runner of their own (tests that need one start it).
    JOB_RUNNER: 'off',
    NEXTAUTH_URL: 'http://localhost',
  });
  project.provide('databaseUrl', database.url);
  project.provide('serverLogFile', serverLogFile);
  return async () => {
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
}
