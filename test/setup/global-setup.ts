import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startNextServer } from '../../scripts/support/next-server';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    serverLogFile: string;
  }
}

/**
 * The `http` project: one real PostgreSQL (fresh, in a temp folder) and one production server
 * (`npm run build`, scripts/serve.mjs on a free port) for what lives at the socket. Tests speak
 * HTTP to it and build their own tenants; none relies on seeded ids.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-test-');
  const resultsDir = path.join(root, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  const serverLogFile = path.join(resultsDir, 'integration-server.log');
  rmSync(serverLogFile, { force: true });
  const server = await startNextServer({
    root,
    // Tests that need the job runner start their own instance on their own database.
    // Shorter HTTP timeouts than the defaults (10 s and 30 s), so that the slow-client tests take
    // seconds, not half a minute; not so short that a test's own client, stalled by the loaded
    // machine, sends its body late. (A server stalled while the body arrived once answered 408
    // with 5 s; the edge now looks again after a stall: test/unit/edge-stall.test.ts.)
    env: { DATABASE_URL: database.url, LOG_LEVEL: 'info', JOB_RUNNER: 'off', HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '10000' },
    logFile: serverLogFile,
  });
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', database.url);
  project.provide('serverLogFile', serverLogFile);
  return async () => {
    // The run is over: nothing the server has in flight matters.
    await server.stop({ graceful: false });
    await database.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
}
