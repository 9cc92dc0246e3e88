import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/**
 * sha256 (hex) of the RFC 8785 canonical JSON of a value: equal content, equal hash, whatever
 * the key order. Book artifact hashes and idempotency fingerprints are both this.
 */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
