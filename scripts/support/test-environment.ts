import { chmodSync, mkdtempSync } from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { ensureBuild } from './next-server';
import { writeTestCertificates } from './test-certificates';

/** The migrated template every isolated test database is cloned from. */
const MIGRATED_TEMPLATE = 'migrated_template';

/** Encrypts webhook signing secrets in test databases only. */
const TEST_SEALING_KEY = '0123456789abcdef'.repeat(4);

/**
 * What both test runners start from: a fresh embedded PostgreSQL (migrated) in a temp folder,
 * a test CA for the HTTPS webhook receivers, and a production build. The settings go on
 * process.env before any server starts: servers and test workers inherit them, and Node reads
 * NODE_EXTRA_CA_CERTS only when a process starts. The production build is made unless the
 * tests reach the service in-process (`build: false`).
 */
export async function prepareTestEnvironment(root: string, prefix: string, { build = true }: { build?: boolean } = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must traverse it
  const database = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
  await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
  // A copy of the migrated database, for tests that need a database of their own: cloning it
  // takes a fraction of replaying every migration (lib/testing/isolated-database.ts).
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE} TEMPLATE ${new URL(database.url).pathname.slice(1)}`);
  await admin.end();
  const tls = await writeTestCertificates(tmp);
  Object.assign(process.env, {
    NODE_EXTRA_CA_CERTS: tls.caFile,
    TEST_TLS_CERT: tls.certFile,
    TEST_TLS_KEY: tls.keyFile,
    SEALING_KEY: TEST_SEALING_KEY,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    TEST_DATABASE_URL: database.url,
    TEST_TEMPLATE_DATABASE: MIGRATED_TEMPLATE,
  });
  if (build) ensureBuild(root);
  return { tmp, database };
}
