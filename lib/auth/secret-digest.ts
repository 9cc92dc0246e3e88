import { hash, timingSafeEqual } from 'node:crypto';

/** sha256 hex of a secret (an API key, a session token): the only form in which secrets are stored. */
export function digestOf(secret: string): string {
  // One-shot: no Hash object per call (it is on every API-key request's path).
  return hash('sha256', secret, 'hex');
}

/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
