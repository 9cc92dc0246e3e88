// Everything the browser tests need, on free loopback ports: a fresh embedded PostgreSQL
// (migrated), the local OpenID Connect provider, the production build under `next start` with
// its in-process job runner, and a test CA that the service trusts for webhook receivers.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from '../../lib/db/embedded';
import { startIdp } from '../../scripts/support/idp';
import { startNextServer } from '../../scripts/support/next-server';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

export const OIDC_CLIENT_ID = 'quote-portal-e2e';
const OIDC_CLIENT_SECRET = 'quote-portal-e2e-secret';

export async function startHarness() {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-e2e-');
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
      // The run is over: nothing the server has in flight matters (its graceful stop waits up to
      // 25 s for webhook sends to receivers the tests have left behind).
      const from = performance.now();
      await server.stop({ graceful: false });
      await idp.stop();
      await database.stop();
      console.log(`browser tests' service and database stopped in ${((performance.now() - from) / 1000).toFixed(1)} s`);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
