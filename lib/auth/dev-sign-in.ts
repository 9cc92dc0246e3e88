/**
 * The local "development sign-in" (type an email, get a real session) exists only where it
 * cannot reach production. All must hold, checked on every call:
 *  1. AUTH_DEV_LOGIN=1 — `npm start` sets it only when it started the embedded database itself;
 *  2. the app's own origin (NEXTAUTH_URL) is plain http on a loopback host — a deployment has
 *     a public https origin, or its OIDC redirects would not work;
 *  3. `next dev`, or the embedded database (EMBEDDED_DATABASE=1 and DATABASE_URL on loopback).
 */
import { settings, type Settings } from '../settings/settings';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackUrl(value: string | undefined, protocols: string[]): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

type DevSignInSettings = Pick<Settings, 'AUTH_DEV_LOGIN' | 'NEXTAUTH_URL' | 'NODE_ENV' | 'EMBEDDED_DATABASE' | 'DATABASE_URL'>;

export function devSignInEnabled(given: DevSignInSettings = settings()): boolean {
  if (!given.AUTH_DEV_LOGIN) return false;
  if (!isLoopbackUrl(given.NEXTAUTH_URL, ['http:'])) return false;
  if (given.NODE_ENV !== 'production') return true;
  return given.EMBEDDED_DATABASE && isLoopbackUrl(given.DATABASE_URL, ['postgresql:', 'postgres:']);
}
