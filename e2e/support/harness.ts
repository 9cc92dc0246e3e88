// Everything the browser tests need, on free loopback ports: a fresh embedded PostgreSQL
// (migrated), the local OpenID Connect provider, the production build under `next start` with
// its in-process job runner, and a test CA that the service trusts for webhook receivers.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startEmbeddedPostgres } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { startIdp } from '../../scripts/support/idp';
import { ensureBuild, startNextServer } from '../../scripts/support/next-server';
import { writeTestCertificates } from '../../scripts/support/test-certificates';

export const OIDC_CLIENT_ID = 'quote-portal-e2e';
const OIDC_CLIENT_SECRET = 'quote-portal-e2e-secret';
/** Encrypts webhook signing secrets in the test database only. */
const TEST_WEBHOOK_SECRET_KEY = '0123456789abcdef'.repeat(4);

export async function startHarness() {
  const root = path.resolve(import.meta.dirname, '../..');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-service-e2e-'));
  chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must traverse it
  const database = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
  await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
  // Webhook receivers in tests are real HTTPS servers with a certificate from a test CA. Set
  // before `next start`, which inherits process.env (Node reads NODE_EXTRA_CA_CERTS at start
  // only), and inherited by the test workers, which start the receivers.
  const tls = await writeTestCertificates(tmp);
  Object.assign(process.env, {
    NODE_EXTRA_CA_CERTS: tls.caFile,
    TEST_TLS_CERT: tls.certFile,
    TEST_TLS_KEY: tls.keyFile,
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  });
  ensureBuild(root);
  const port = await findFreePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const idp = await startIdp({
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    redirectUris: [`${appUrl}/api/auth/callback/oidc`],
  });
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  const server = await startNextServer({
    root,
    port,
    logFile: path.join(root, 'test-results', 'e2e-server.log'),
    env: {
      DATABASE_URL: database.url,
      NEXTAUTH_URL: appUrl,
      NEXTAUTH_SECRET: 'e2e-only-secret-0123456789abcdef0123456789',
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_NAME: 'Test IdP',
      AUTH_DEV_LOGIN: '1',
      EMBEDDED_DATABASE: '1',
    },
  });
  return {
    appUrl,
    databaseUrl: database.url,
    issuer: idp.issuer,
    async stop() {
      await server.stop();
      await idp.stop();
      await database.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
