// next-auth v4: one OpenID Connect provider configured by environment, database sessions
// through our hashed-token adapter. See docs/operations.md for the variables.
import type { NextAuthOptions } from 'next-auth';
import { getServerSession } from 'next-auth/next';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { systemContext } from '../context/verb-context';
import { getDb } from '../db/client';
import { acceptInvitations } from '../members/invite-business-member';
import { hashedSessionAdapter } from '../auth/next-auth-adapter';
import { SESSION_MAX_AGE_SECONDS, mintSessionToken } from '../auth/sessions';
import { settings } from '../settings/settings';

type OidcClaims = { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string };

function oidcProvider(): OAuthConfig<OidcClaims> {
  const issuer = required('OIDC_ISSUER').replace(/\/$/, '');
  return {
    id: 'oidc',
    name: settings().OIDC_NAME,
    type: 'oauth',
    // The discovery document's issuer must equal this exactly (localhost vs 127.0.0.1, trailing /).
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId: required('OIDC_CLIENT_ID'),
    clientSecret: required('OIDC_CLIENT_SECRET'),
    authorization: { params: { scope: 'openid email profile' } },
    checks: ['pkce', 'state', 'nonce'],
    idToken: true,
    // Many IdPs put email and name only in /userinfo: read both, and insist they are one person.
    userinfo: {
      async request({ tokens, client }) {
        const idClaims = (tokens as unknown as { claims(): OidcClaims }).claims();
        const info = (await client.userinfo(tokens.access_token!)) as unknown as OidcClaims;
        if (info.sub !== idClaims.sub) throw new Error('userinfo sub does not match the ID token');
        return { ...idClaims, ...info };
      },
    },
    profile(p) {
      if (!p.email) throw new Error('The identity provider did not share an email address.');
      // Accounts are matched by email (invitations, linking): only an address the IdP vouches for will do.
      if (p.email_verified !== true) throw new Error('The identity provider has not verified this email address.');
      return { id: p.sub, name: p.name ?? null, email: p.email, image: p.picture ?? null };
    },
    // People are invited by email before they first sign in; the workspace's own IdP vouches
    // for that email, so the first sign-in adopts the invited row.
    allowDangerousEmailAccountLinking: true,
  };
}

export const authOptions: NextAuthOptions = {
  adapter: hashedSessionAdapter(lazyDb()),
  session: { strategy: 'database', maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 24 * 60 * 60, generateSessionToken: mintSessionToken },
  providers: settings().OIDC_ISSUER ? [oidcProvider()] : [],
  pages: { signIn: '/signin' },
  events: {
    async signIn({ user }) {
      await acceptInvitations(systemContext(getDb(), 'sign-in'), { userId: user.id });
    },
  },
  callbacks: {
    session({ session, user }) {
      return { ...session, user: { ...session.user, id: user.id, email: user.email, name: user.name } };
    },
  },
};

/** The signed-in person in a server component, or null. */
export function getPortalSession() {
  return getServerSession(authOptions);
}

function required(name: 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET'): string {
  const value = settings()[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

// The adapter is built at import time; the pool only on first use (a build must not need a database).
function lazyDb() {
  return new Proxy({} as ReturnType<typeof getDb>, { get: (_target, prop) => Reflect.get(getDb(), prop) });
}
