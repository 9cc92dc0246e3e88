import { randomBytes } from 'node:crypto';
import { digestOf } from '../auth/secret-digest';
import type { EnvironmentName } from '../auth/principal';

const KEY_PREFIX: Record<EnvironmentName, string> = { test: 'sk_test_', live: 'sk_live_' };

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
