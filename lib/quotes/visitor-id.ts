import { randomBytes } from 'node:crypto';
import { settings } from '../settings/settings';

/**
 * The hosted page's visitor id: a first-party cookie this service sets on POST /v1/public_quotes
 * (HttpOnly, SameSite=Lax, Secure over https), generated when absent or malformed. It is the
 * subject experiments assign by on the hosted page, so that a visitor who asks again sees the
 * same arm (docs/experiments.md). Random, it says nothing about the visitor; only its sha256 is
 * stored (in the receipt).
 */
export const VISITOR_COOKIE = 'qps_visitor';
const MAX_AGE_S = 365 * 24 * 60 * 60;
const WELL_FORMED = /^[A-Za-z0-9_-]{22,64}$/;

export function visitorIdOf(request: Request): { visitorId: string; setCookie: string | null } {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== VISITOR_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    if (WELL_FORMED.test(value)) return { visitorId: value, setCookie: null };
  }
  const visitorId = randomBytes(16).toString('base64url');
  const secure = settings().NEXTAUTH_URL?.startsWith('https://') || request.url.startsWith('https://') ? '; Secure' : '';
  return { visitorId, setCookie: `${VISITOR_COOKIE}=${visitorId}; Path=/v1/public_quotes; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}` };
}
