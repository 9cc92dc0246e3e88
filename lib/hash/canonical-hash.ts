import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * sha256 (hex) of the RFC 8785 canonical JSON of a value: equal content, equal hash, whatever
 * the key order. Book artifact hashes and idempotency fingerprints are both this.
 */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalize(value) ?? '', 'utf8').digest('hex');
}
