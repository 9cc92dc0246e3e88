import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { ServiceError } from '../errors/service-error';
import { settings } from '../settings/settings';

/**
 * The sealing key: 32 bytes from configuration that encrypt what the service must read back but
 * never store in the clear (webhook signing secrets, the receipt signing keys), and from which
 * purpose keys are derived (the acceptance form's token). `SEALING_KEY`, 64 hex characters; its
 * former name `WEBHOOK_SECRET_KEY` is still read. Stored form of a sealed value:
 * `v1.<iv>.<tag>.<ciphertext>`, all base64url (AES-256-GCM).
 */

/** The variable the key is read from, and its value: SEALING_KEY, else the former name. */
export function configuredSealingKey({ SEALING_KEY, WEBHOOK_SECRET_KEY } = settings()): { name: string; value: string | undefined } {
  if (SEALING_KEY !== undefined) return { name: 'SEALING_KEY', value: SEALING_KEY };
  if (WEBHOOK_SECRET_KEY !== undefined) return { name: 'WEBHOOK_SECRET_KEY', value: WEBHOOK_SECRET_KEY };
  return { name: 'SEALING_KEY', value: undefined };
}

function key(): Buffer {
  const problem = sealingKeyProblem();
  // A route that reaches this without checking first still answers 503, never 500.
  if (problem) throw new ServiceError('service_unavailable', `This instance cannot do that now: ${problem}.`);
  return Buffer.from(configuredSealingKey().value!, 'hex');
}

/** Why the configured key cannot be used, or null when it is well-formed. */
export function sealingKeyProblem(): string | null {
  const { name, value } = configuredSealingKey();
  if (!value) return `${name} is not set`;
  if (!/^[0-9a-fA-F]{64}$/.test(value)) return `${name} must be 64 hex characters (32 random bytes)`;
  return null;
}

/**
 * A value that identifies the key without revealing it (an HMAC of a fixed text): stored once,
 * so that an instance started with another key sees the difference before it seals or opens anything.
 */
export function sealingKeyCheckValue(): string {
  // The text names the key's former use: check values recorded before the rename still match.
  return createHmac('sha256', key()).update('quote-pricing-service/webhook-secret-key-check/v1').digest('base64url');
}

/**
 * A key for one purpose (e.g. `acceptance-form`), derived from the sealing key: what every
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
