import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/**
 * sha256 (hex) of the RFC 8785 canonical JSON of a value: equal content, equal hash, whatever
 * the key order. Book artifact hashes and idempotency fingerprints are both this.
 */
export function canonicalHash(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'hex');
}
