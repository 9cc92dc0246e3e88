import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

/** canonicalize throws where RFC 8785 has no answer (lone surrogates); so must we. */
function reference(value: unknown): string | Error {
  try {
    return canonicalize(value) ?? '';
  } catch (error) {
    return error as Error;
  }
}

function ours(value: unknown): string | Error {
  try {
    return canonicalJson(value);
  } catch (error) {
    return error as Error;
  }
}

describe('canonicalJson', () => {
  it('writes exactly what the canonicalize package writes, for any JSON value', () => {
    const json = fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' }); // binary: lone surrogates too
    fc.assert(
      fc.property(json, (value) => {
        const expected = reference(value);
        const actual = ours(value);
        if (expected instanceof Error) expect(actual).toBeInstanceOf(Error);
        else expect(actual).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    // 3,000 deep values: seconds alone, over 30 s on a machine loaded by the whole suite (2 December).
  }, 120_000);

  it('sorts keys by UTF-16 code units, array-index keys included, and writes numbers as ECMAScript does', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: 1e21, c: -0 }], 10: 'x', 2: 'y', é: 1, z: 1.5e-7 })).toBe(
      '{"10":"x","2":"y","a":[3,{"c":0,"d":1e+21}],"b":1,"z":1.5e-7,"é":1}',
    );
    expect(canonicalJson({ '\u20ac': 1, '\ud83d\ude00': 2, '\r': 3 })).toBe('{"\\r":3,"€":1,"😀":2}'); // € (U+20AC) before 😀 (U+D83D U+DE00)
    expect(canonicalJson({ skipped: undefined, kept: null })).toBe('{"kept":null}');
  });
});

describe('the fast path', () => {
  it('agrees with the package on values whose keys are already in order', () => {
    const sortedDeep = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sortedDeep)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]))
          : value;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' }), (value) => {
        const sorted = sortedDeep(value);
        const expected = reference(sorted);
        const actual = ours(sorted);
        if (expected instanceof Error) expect(actual).toBeInstanceOf(Error);
        else expect(actual).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
