import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../sdk/src/canonical-json';

// The SDK verifies receipts over its own RFC 8785 canonical JSON (so that CommonJS can load it);
// the service signs over the `canonicalize` package's. They must not differ on any JSON value.
describe("the SDK's canonical JSON", () => {
  it('is the canonicalize package’s, for every JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => canonicalJson(value) === canonicalize(value)), { numRuns: 2000 });
  });

  it('refuses what canonicalize refuses', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '\uD800', 'a\uDC00']) expect(() => canonicalJson(bad)).toThrow();
  });
});
