import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../db/client';
import { digestOf } from './secret-digest';
import type { SessionPrincipal } from './principal';
import { findSessionWithUser, insertSession } from './store';

/** Cookie names next-auth uses for a database session (plain http, and https). */
const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'];

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** A new session token (256 random bits). Only its sha256 digest is stored. */
export function mintSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Opens a session for a user and returns its token (shown to the caller only). */
export async function createSession(db: DbOrTx, userId: string, now: Date, maxAgeSeconds = SESSION_MAX_AGE_SECONDS) {
  const token = mintSessionToken();
  await insertSession(db, { tokenDigest: digestOf(token), userId, expires: new Date(now.getTime() + maxAgeSeconds * 1000) });
  return token;
}

/** The session a token names, if it exists and has not expired. */
export async function findSession(db: DbOrTx, token: string, now: Date): Promise<SessionPrincipal | null> {
  const session = await findSessionWithUser(db, digestOf(token));
  if (!session || session.expires <= now) return null;
  return { kind: 'session', sessionId: session.id, userId: session.user.id, email: session.user.email, name: session.user.name };
}

/** The session token of a request: `Authorization: Bearer <token>` or next-auth's cookie. */
export function sessionTokenOf(request: Request): { token: string; via: 'bearer' | 'cookie' } | null {
  const authorization = request.headers.get('authorization');
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (bearer) return { token: bearer[1], via: 'bearer' };
  const cookies = request.headers.get('cookie') ?? '';
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (SESSION_COOKIES.includes(name) && value.length > 0) return { token: decodeURIComponent(value.join('=')), via: 'cookie' };
  }
  return null;
}
