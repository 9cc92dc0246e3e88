import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Signing secrets are stored encrypted (AES-256-GCM) with a key from configuration
 * (WEBHOOK_SECRET_KEY: 32 bytes as 64 hex characters), because delivery needs them back.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>`, all base64url.
 */
function key(): Buffer {
  const problem = secretKeyProblem();
  if (problem) throw new Error(problem);
  return Buffer.from(process.env.WEBHOOK_SECRET_KEY!, 'hex');
}

/** Why the configured key cannot be used, or null when it is well-formed. */
export function secretKeyProblem(): string | null {
  const configured = process.env.WEBHOOK_SECRET_KEY;
  if (!configured) return 'WEBHOOK_SECRET_KEY is not set';
  if (!/^[0-9a-fA-F]{64}$/.test(configured)) return 'WEBHOOK_SECRET_KEY must be 64 hex characters (32 random bytes)';
  return null;
}

/**
 * A value that identifies the key without revealing it (an HMAC of a fixed text): stored once,
 * so that an instance started with another key sees the difference before it seals or opens anything.
 */
export function secretKeyCheckValue(): string {
  return createHmac('sha256', key()).update('quote-pricing-service/webhook-secret-key-check/v1').digest('base64url');
}

/**
 * A key for one purpose (e.g. `acceptance-form`), derived from the configured key: what every
 * instance can make and check alike, without a secret of its own to share.
 */
export function derivedKey(purpose: string): Buffer {
  return createHmac('sha256', key()).update(`quote-pricing-service/${purpose}/v1`).digest();
}

export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !ciphertext) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new signing secret: `whsec_` and 256 random bits. */
export function mintSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
