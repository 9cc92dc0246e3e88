// Everything the browser tests need, on free loopback ports: a fresh embedded PostgreSQL
// (migrated), the local OpenID Connect provider, the production build under `next start` with
// its in-process job runner, and a test CA that the service trusts for webhook receivers.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startIdp } from '../../scripts/support/idp';
import { onFreePort, startNextServer } from '../../scripts/support/next-server';
import { prepareTestEnvironment } from '../../scripts/support/test-environment';

export const OIDC_CLIENT_ID = 'quote-portal-e2e';
const OIDC_CLIENT_SECRET = 'quote-portal-e2e-secret';

export async function startHarness() {
  const root = path.resolve(import.meta.dirname, '../..');
  const { tmp, database } = await prepareTestEnvironment(root, 'quote-service-e2e-');
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  const { port, idp, server } = await startOnFreePort(root, database.url);
  const appUrl = `http://127.0.0.1:${port}`;
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

/**
 * The identity provider and the service on one free port, which both must know before either
 * starts (the provider's redirect address, the service's NEXTAUTH_URL): both start again on
 * another when the service finds it taken (`onFreePort`).
 */
function startOnFreePort(root: string, databaseUrl: string) {
  return onFreePort(async (port) => {
    const appUrl = `http://127.0.0.1:${port}`;
    const idp = await startIdp({
      clientId: OIDC_CLIENT_ID,
      clientSecret: OIDC_CLIENT_SECRET,
      redirectUris: [`${appUrl}/api/auth/callback/oidc`],
    });
    try {
      const server = await startNextServer({
        root,
        port,
        logFile: path.join(root, 'test-results', 'e2e-server.log'),
        env: {
          DATABASE_URL: databaseUrl,
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
      return { port, idp, server };
    } catch (error) {
      await idp.stop();
      throw error;
    }
  });
}
