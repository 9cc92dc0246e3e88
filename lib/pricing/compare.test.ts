import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateBook } from '../testing/generate-book';
import { CHANGE_BUCKETS, changeBucket, changePercent, changesByMoreThan, classifyChange, ruleDifferences } from './compare';
import { bookArtifactSchema, compileBook, evaluate, type BookArtifactInput, type Outcome, type QuoteInputs } from './index';

const priced = (totalMinor: number) => ({ outcome: 'succeeded', computation: { totalMinor } }) as Outcome;
const needsInput = { outcome: 'requires_input', missingInputs: ['factors.a'] } as Outcome;
const failed = { outcome: 'failed', failure: { code: 'unknown_offering', message: 'x' } } as Outcome;
const bucketOf = (before: number, after: number) => CHANGE_BUCKETS[changeBucket(before, after)].id;

describe('classifyChange', () => {
  it('names every pair of outcomes', () => {
    expect(classifyChange(priced(100), priced(100))).toBe('unchanged');
    expect(classifyChange(priced(100), priced(101))).toBe('higher');
    expect(classifyChange(priced(100), priced(99))).toBe('lower');
    expect(classifyChange(priced(100), needsInput)).toBe('newly_requires_input');
    expect(classifyChange(priced(100), failed)).toBe('newly_failed');
    expect(classifyChange(needsInput, priced(1))).toBe('now_priced');
    expect(classifyChange(null, priced(1))).toBe('now_priced');
    expect(classifyChange(failed, priced(0))).toBe('now_priced');
    expect(classifyChange(needsInput, needsInput)).toBe('unchanged');
    expect(classifyChange(failed, failed)).toBe('unchanged');
    expect(classifyChange(null, failed)).toBe('unchanged');
    expect(classifyChange(needsInput, failed)).toBe('newly_failed');
    expect(classifyChange(failed, needsInput)).toBe('newly_requires_input');
  });
});

describe('changeBucket', () => {
  it('puts each bound where the buckets say, decided in integers', () => {
    expect(bucketOf(10_000, 8_000)).toBe('down_20_or_more'); // exactly -20%
    expect(bucketOf(10_000, 8_001)).toBe('down_10_to_20');
    expect(bucketOf(10_000, 9_000)).toBe('down_10_to_20'); // exactly -10%
    expect(bucketOf(10_000, 9_001)).toBe('down_2_to_10');
    expect(bucketOf(10_000, 9_800)).toBe('down_2_to_10'); // exactly -2%
    expect(bucketOf(10_000, 9_801)).toBe('within_2');
    expect(bucketOf(10_000, 10_000)).toBe('within_2');
    expect(bucketOf(10_000, 10_199)).toBe('within_2');
    expect(bucketOf(10_000, 10_200)).toBe('up_2_to_10'); // exactly +2%
    expect(bucketOf(10_000, 11_000)).toBe('up_10_to_20'); // exactly +10%
    expect(bucketOf(10_000, 11_999)).toBe('up_10_to_20');
    expect(bucketOf(10_000, 12_000)).toBe('up_20_or_more'); // exactly +20%
    expect(bucketOf(0, 0)).toBe('within_2');
    expect(bucketOf(0, 1)).toBe('up_20_or_more');
    expect(bucketOf(1, 0)).toBe('down_20_or_more');
    // 10^12 minor units: the integer comparison still holds
    expect(bucketOf(1_000_000_000_000, 1_100_000_000_000)).toBe('up_10_to_20');
  });

  it('agrees with the rounded percentage away from the bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 3_000_000 }), (before, after) => {
        const exact = ((after - before) * 100) / before;
        const bucket = CHANGE_BUCKETS[changeBucket(before, after)];
        if (bucket.below !== null) expect(exact).toBeGreaterThanOrEqual(bucket.below);
        if (bucket.upTo !== null) expect(exact).toBeLessThanOrEqual(bucket.upTo);
      }),
    );
  });
});

describe('changePercent and changesByMoreThan', () => {
  it('rounds to 0.01% and treats a rise from 0 as unbounded', () => {
    expect(changePercent(300, 400)).toBe(33.33);
    expect(changePercent(400, 300)).toBe(-25);
    expect(changePercent(0, 0)).toBe(0);
    expect(changePercent(0, 5)).toBeNull();
    expect(changesByMoreThan(1000, 1100, 10)).toBe(false); // exactly 10% is not more than 10%
    expect(changesByMoreThan(1000, 1101, 10)).toBe(true);
    expect(changesByMoreThan(1000, 899, 10)).toBe(true);
    expect(changesByMoreThan(0, 1, 10)).toBe(true);
  });
});

/** A generated book and a variant of it: amounts scaled, a rule removed, a surcharge added. */
function variantOf(artifact: BookArtifactInput, edit: { scaleBase: number; drop: number; add: number }): BookArtifactInput {
  const copy = structuredClone(artifact);
  copy.offerings = copy.offerings.map((o, i) => (i === 0 ? { ...o, basePriceMinor: Math.round((o.basePriceMinor * edit.scaleBase) / 100) } : o));
  if (copy.rules && copy.rules.length > 0) copy.rules.splice(edit.drop % copy.rules.length, 1);
  copy.rules = [
    ...(copy.rules ?? []),
    { id: 'added', label: 'Added surcharge', phase: 'conditionalModifier', when: [{ factorId: 'f0', optionIds: ['o1'] }], adjustment: { type: 'percent', basisPoints: edit.add } },
  ];
  return copy;
}

const inputsArbitrary = fc.record({
  offering: fc.integer({ min: 0, max: 3 }),
  answers: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
});
const toInputs = ({ offering, answers }: { offering: number; answers: number[] }): QuoteInputs => ({
  offeringId: `service_${offering}`,
  factors: Object.fromEntries(answers.map((a, f) => [`f${f}`, `o${a}`])),
});

describe('ruleDifferences', () => {
  it('adds up to the difference of the totals (any book, any variant, any answers)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.record({ scaleBase: fc.integer({ min: 0, max: 300 }), drop: fc.nat(), add: fc.integer({ min: -10_000, max: 5_000 }) }),
        fc.array(inputsArbitrary, { minLength: 1, maxLength: 10 }),
        (rules, seed, edit, answers) => {
          const artifact = generateBook(rules, seed);
          const before = compileBook(bookArtifactSchema.parse(artifact));
          const after = compileBook(bookArtifactSchema.parse(variantOf(artifact, edit)));
          for (const inputs of answers.map(toInputs)) {
            const a = evaluate(before, inputs);
            const b = evaluate(after, inputs);
            if (a.outcome !== 'succeeded' || b.outcome !== 'succeeded') continue;
            const differences = ruleDifferences(before, a.computation.derivation, after, b.computation.derivation);
            const explained = differences.reduce((sum, d) => sum + d.deltaChangeMinor, 0);
            expect(explained).toBe(b.computation.totalMinor - a.computation.totalMinor);
            if (b.computation.totalMinor !== a.computation.totalMinor) expect(differences.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('names the rules by their labels, and a rule only one book has with null on the other side', () => {
    const artifact = generateBook(0, 1);
    const before = compileBook(bookArtifactSchema.parse(artifact));
    const after = compileBook(bookArtifactSchema.parse(variantOf(artifact, { scaleBase: 200, drop: 0, add: 2_500 })));
    const inputs = toInputs({ offering: 0, answers: [1, 0, 0, 0, 0, 0, 0, 0] });
    const a = evaluate(before, inputs);
    const b = evaluate(after, inputs);
    if (a.outcome !== 'succeeded' || b.outcome !== 'succeeded') throw new Error('the example must price');
    expect(ruleDifferences(before, a.computation.derivation, after, b.computation.derivation)).toEqual([
      { phase: 'base', ruleId: null, ruleType: 'offeringBase', label: 'Base price', before: { status: 'applied', deltaMinor: 10_000 }, after: { status: 'applied', deltaMinor: 20_000 }, deltaChangeMinor: 10_000 },
      { phase: 'conditionalModifier', ruleId: 'added', ruleType: 'percent', label: 'Added surcharge', before: null, after: { status: 'applied', deltaMinor: 5_000 }, deltaChangeMinor: 5_000 },
    ]);
  });
});
