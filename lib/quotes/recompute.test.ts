import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../hash/canonical-json';
import { firstDifference, sameJson } from './recompute';

/** The same JSON value with its keys in another order. */
function shuffled(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, random));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(() => random() - 0.5);
  return Object.fromEntries(entries.map(([key, inner]) => [key, shuffled(inner, random)]));
}

describe('recomputation', () => {
  const json = fc.jsonValue({ maxDepth: 4 }).filter((value) => {
    try {
      canonicalJson(value);
      return true;
    } catch {
      return false;
    }
  });

  it('calls two JSON values the same exactly when their canonical texts are equal', () => {
    fc.assert(
      fc.property(json, json, fc.integer(), (a, b, seed) => {
        let state = seed;
        const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
        expect(sameJson(a, shuffled(a, random))).toBe(true);
        expect(sameJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('names the first derivation step where two results part, then any other field', () => {
    const step = (sequence: number, deltaMinor: number) => ({ sequence, phase: 'base' as const, ruleId: null, ruleType: null, status: 'applied' as const, reason: '', deltaMinor, runningTotalMinor: 0 });
    const result = (deltas: number[], totalMinor: number) => ({
      outcome: 'succeeded' as const,
      computation: { currency: 'GBP', lineItems: [], totalMinor, paymentTerms: { depositBasisPoints: 0, depositMinor: 0, balanceDueMinor: totalMinor }, conditions: [], derivation: deltas.map((d, i) => step(i, d)) },
      missingInputs: [],
      failure: null,
    });
    expect(firstDifference(result([100, 20, 5], 125), result([100, 25, 5], 130))).toMatchObject({ path: 'computation.derivation[1]', sequence: 1 });
    expect(firstDifference(result([100, 20], 120), result([100, 20], 121))).toEqual({ path: 'computation.totalMinor', sequence: null, stored: 120, recomputed: 121 });
  });
});
