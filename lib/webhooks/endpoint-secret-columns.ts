import { randomBytes } from 'node:crypto';
import { sealSecret } from '../sealing/sealing-key';

/** A new signing secret: `whsec_` and 256 random bits. */
export function mintSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The columns an endpoint keeps of its secret: sealed, and the parts shown again. */
export function secretColumns(secret: string) {
  return { secretCiphertext: sealSecret(secret), secretPrefix: secret.slice(0, 10), secretLast4: secret.slice(-4) };
}
