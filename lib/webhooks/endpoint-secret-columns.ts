import { sealSecret } from './secret-box';

export function secretColumns(secret: string) {
  return { secretCiphertext: sealSecret(secret), secretPrefix: secret.slice(0, 10), secretLast4: secret.slice(-4) };
}
