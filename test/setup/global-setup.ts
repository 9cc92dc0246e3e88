import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePort, startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { ensureBuild, startNextServer } from '../../scripts/support/next-server';
import { writeTestCertificates } from '../../scripts/support/test-certificates';

/** Encrypts webhook signing secrets in the test database only. */
const TEST_WEBHOOK_SECRET_KEY = '0123456789abcdef'.repeat(4);

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
  // Webhook receivers in tests are real HTTPS servers with a certificate from a test CA.
  const tls = await writeTestCertificates(tmp);
  Object.assign(process.env, {
    NODE_EXTRA_CA_CERTS: tls.caFile,
    TEST_TLS_CERT: tls.certFile,
    TEST_TLS_KEY: tls.keyFile,
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  }); // inherited by the test workers and servers
  ensureBuild(root);
  const resultsDir = path.join(root, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  const serverLogFile = path.join(resultsDir, 'integration-server.log');
  rmSync(serverLogFile, { force: true });
  const server = await startNextServer({
    root,
    port: await findFreePort(),
    // Tests that need the job runner start their own instance on their own database.
    env: { DATABASE_URL: database.url, LOG_LEVEL: 'info', JOB_RUNNER: 'off' },
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
