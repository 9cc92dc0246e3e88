// A local OpenID Connect provider for tests and development: oidc-provider on loopback, one
// confidential client, devInteractions (its built-in "any login / any password" page), consent
// auto-granted for our first-party client. Run alone: `node --import tsx scripts/support/idp.ts`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export type IdpHandle = { issuer: string; port: number; stop(): Promise<void> };

export type StartIdpOptions = {
  host?: string; // the hostname in the issuer URL; must be what the app uses in OIDC_ISSUER
  port?: number; // 0 = free port
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
};

/** Login "alice" -> alice@example.test. Anything containing @ is used as the email itself. */
function claimsFor(login: string) {
  const email = login.includes('@') ? login.toLowerCase() : `${login.toLowerCase()}@example.test`;
  return { sub: login, email, email_verified: true, name: login.split('@')[0] };
}

export async function startIdp(opts: StartIdpOptions): Promise<IdpHandle> {
  const host = opts.host ?? '127.0.0.1';
  // Bind first: the issuer must contain the real port before the Provider is built.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic', // openid-client's default
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      return { accountId: sub, async claims() { return claimsFor(sub); } };
    },
    features: { devInteractions: { enabled: true } },
    // First-party client: skip the consent screen by granting requested scopes on first use.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    // Test-only keys; a fixed value avoids the "generated cookie keys" warning.
    cookies: { keys: ['local-idp-cookie-key-for-tests-only'] },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());

  return {
    issuer,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const idp = await startIdp({
    host: process.env.IDP_HOST,
    port: Number(process.env.IDP_PORT ?? 0),
    clientId: process.env.OIDC_CLIENT_ID ?? 'quote-portal',
    clientSecret: process.env.OIDC_CLIENT_SECRET ?? 'quote-portal-secret',
    redirectUris: (process.env.IDP_REDIRECT_URIS ?? 'http://127.0.0.1:3000/api/auth/callback/oidc').split(','),
  });
  console.log(`IdP issuer: ${idp.issuer}`);
}
