import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** sha256 (hex) of the RFC 8785 canonical JSON of a value: equal content, equal hash. */
export function artifactHash(artifact: unknown): string {
  return createHash('sha256').update(canonicalize(artifact) ?? '', 'utf8').digest('hex');
}
