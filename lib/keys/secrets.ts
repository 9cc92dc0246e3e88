import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type EnvironmentName = 'test' | 'live';

const KEY_PREFIX: Record<EnvironmentName, string> = { test: 'sk_test_', live: 'sk_live_' };

/** sha256 hex of a secret: the only form in which API keys are stored. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A new API key secret (192 random bits) with what may be shown of it afterwards. */
export function mintKeySecret(environment: EnvironmentName) {
  const secret = KEY_PREFIX[environment] + randomBytes(24).toString('base64url');
  return {
    secret,
    digest: digestOf(secret),
    displayPrefix: secret.slice(0, KEY_PREFIX[environment].length + 4),
    last4: secret.slice(-4),
  };
}

/** The environment a secret claims by its prefix, or null when it has none of ours. */
export function environmentOfSecret(secret: string): EnvironmentName | null {
  if (secret.startsWith(KEY_PREFIX.test)) return 'test';
  if (secret.startsWith(KEY_PREFIX.live)) return 'live';
  return null;
}
