import type { Principal, SessionPrincipal } from '../../auth/principal';
import { findSession, sessionTokenOf } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { ServiceError } from '../../errors/service-error';
import { authenticateApiKey } from '../../keys/authenticate-api-key';
import type { RouteContract } from '../contract';

/**
 * Who is calling. `confirm`, when present, gives the principal the answer may go out under once
 * the handler has run: a route may take its caller on trust from a domain that re-checks it in
 * its own write (the quote store), and the wrapper asks that domain before it answers.
 */
export type Authenticated<P extends Principal = Principal> = { principal: P; confirm?: () => Promise<P> };

/** A route's own way to authenticate (see Authenticated.confirm); the contract's `auth` otherwise. */
export type Authenticator = (request: Request, db: Db, now: Date) => Promise<Authenticated>;

/** The contract's authentication: anonymous, an API key, or a member's session. */
export async function authenticate(contract: RouteContract, request: Request, db: Db, now: Date): Promise<Authenticated> {
  switch (contract.auth) {
    case 'anonymous':
      return { principal: { kind: 'anonymous' } };
    case 'api_key': {
      const revokedCode = contract.surface === 'account' ? 'revoked_api_key' : 'invalid_api_key';
      return { principal: await authenticateApiKey(db, request.headers.get('authorization'), now, revokedCode) };
    }
    case 'session':
      // An API key where a person is expected: say which credential this route takes, and where keys go.
      if (isApiKeyBearer(request)) throw new ServiceError('unauthorized', MEMBER_ROUTE_WITH_API_KEY);
      return { principal: await authenticateSession(request, db, now) };
    case 'session_or_api_key':
      return isApiKeyBearer(request)
        ? { principal: await authenticateApiKey(db, request.headers.get('authorization'), now, 'invalid_api_key') }
        : { principal: await authenticateSession(request, db, now) };
  }
}

export const MEMBER_ROUTE_WITH_API_KEY =
  'This route is for workspace members: send a member\'s session token (Authorization: Bearer <session token>) or sign in. API keys are for /v1/quotes and /v1/accounts/….';

/**
 * A member's session, from `Authorization: Bearer <session token>` (a caller's own server) or
 * the portal's cookie. Cookie-authenticated writes must come from our own origin (CSRF).
 */
async function authenticateSession(request: Request, db: Db, now: Date): Promise<SessionPrincipal> {
  const presented = sessionTokenOf(request);
  const session = presented ? await findSession(db, presented.token, now) : null;
  if (!presented || !session) throw new ServiceError('unauthorized', 'Sign in, or send a session token as "Authorization: Bearer <token>".');
  if (presented.via === 'cookie' && !['GET', 'HEAD'].includes(request.method) && !sameOrigin(request)) {
    throw new ServiceError('forbidden', 'Cross-site requests cannot use the session cookie.');
  }
  return presented.via === 'cookie' ? { ...session, viaCookie: true } : session;
}

/** API keys are bearers `sk_test_…` / `sk_live_…`; a session token (random base64url) starting so is a 64^-8 chance. */
function isApiKeyBearer(request: Request): boolean {
  return /^Bearer\s+sk_(test|live)_/i.test(request.headers.get('authorization') ?? '');
}

function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (origin) {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return request.headers.get('sec-fetch-site') === 'same-origin';
}
