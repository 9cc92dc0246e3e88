import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateBook } from '../testing/generate-book';
import { bookArtifactSchema, compileBook, evaluate, type Outcome, type QuoteInputs } from '../pricing';
import { ImpactTally, type DistinctRequest } from './impact-tally';

const request = (n: number, quotes = 1, offeringId = 'a'): DistinctRequest => ({
  inputs: { offeringId, factors: { f: `o${n}` } },
  baselineVersionId: 'v1',
  quotes,
  latestIntentId: `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`,
});
const priced = (totalMinor: number) => ({ outcome: 'succeeded', computation: { totalMinor } }) as Outcome;
const failed = { outcome: 'failed', failure: { code: 'unknown_offering', message: 'x' } } as Outcome;

/** Any answers a client could send: every option, unknowns, factors left out, options and offerings the book lacks. */
const inputsArbitrary = fc
  .record({
    offering: fc.oneof(fc.integer({ min: 0, max: 3 }).map((i) => `service_${i}`), fc.constant('gone')),
    answers: fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }).map((i) => `o${i}` as string | null | undefined), fc.constant(null), fc.constant(undefined), fc.constant('o9')), { minLength: 8, maxLength: 8 }),
    quotes: fc.integer({ min: 1, max: 50 }),
  })
  .map(({ offering, answers, quotes }) => {
    const factors: QuoteInputs['factors'] = {};
    answers.forEach((a, f) => {
      if (a !== undefined) factors[`f${f}`] = a;
    });
    return { inputs: { offeringId: offering, factors }, quotes };
  });

describe('ImpactTally', () => {
  it('reports no change at all for an identical copy of the book, whatever the requests', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1, max: 10_000 }), fc.array(inputsArbitrary, { maxLength: 40 }), (rules, seed, requests) => {
        const artifact = generateBook(rules, seed);
        const published = compileBook(bookArtifactSchema.parse(artifact));
        const copy = compileBook(bookArtifactSchema.parse(JSON.parse(JSON.stringify(artifact))));
        const tally = new ImpactTally(10);
        let quotes = 0;
        requests.forEach(({ inputs, quotes: n }, i) => {
          quotes += n;
          tally.add({ inputs, quotes: n, baselineVersionId: 'v', latestIntentId: String(i) }, evaluate(published, inputs), evaluate(copy, inputs));
        });
        const figures = tally.figures();
        expect(figures.quotes).toBe(quotes);
        expect(figures.counts).toEqual({ unchanged: quotes, higher: 0, lower: 0, newly_requires_input: 0, newly_failed: 0, now_priced: 0 });
        expect(figures.significantlyChangedQuotes).toBe(0);
        expect(figures.histogram.filter((b) => b.bucket !== 'within_2').every((b) => b.quotes === 0)).toBe(true);
        for (const o of figures.offerings) {
          expect(o.changedQuotes).toBe(0);
          expect(o.totalAfterMinor).toBe(o.totalBeforeMinor);
          if (o.meanChangePercent !== null) expect([o.meanChangePercent, o.medianChangePercent]).toEqual([0, 0]);
        }
        expect(tally.largestMovers()).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('counts quotes and requests by change, buckets priced pairs, and totals the quoted volume per offering', () => {
    const tally = new ImpactTally(10);
    tally.add(request(1, 3), priced(10_000), priced(10_000)); // unchanged ×3
    tally.add(request(2, 2), priced(10_000), priced(12_500)); // +25% ×2
    tally.add(request(3, 1), priced(10_000), priced(9_500)); // -5%
    tally.add(request(4, 4), priced(10_000), failed); // stops pricing ×4
    tally.add(request(5, 5, 'b'), null, priced(2_000)); // priced now ×5
    const f = tally.figures();
    expect(f.quotes).toBe(15);
    expect(f.requests).toBe(5);
    expect(f.counts).toEqual({ unchanged: 3, higher: 2, lower: 1, newly_requires_input: 0, newly_failed: 4, now_priced: 5 });
    expect(f.requestCounts).toEqual({ unchanged: 1, higher: 1, lower: 1, newly_requires_input: 0, newly_failed: 1, now_priced: 1 });
    expect(Object.fromEntries(f.histogram.map((b) => [b.bucket, b.quotes]))).toEqual({
      down_20_or_more: 0, down_10_to_20: 0, down_2_to_10: 1, within_2: 3, up_2_to_10: 0, up_10_to_20: 0, up_20_or_more: 2,
    });
    // more than 10%: the +25% pair and the four that stop pricing
    expect(f.significantlyChangedQuotes).toBe(6);
    expect(f.offerings).toEqual([
      {
        offeringId: 'a', requests: 4, quotes: 10, changedQuotes: 7,
        totalBeforeMinor: 10 * 10_000, totalAfterMinor: 3 * 10_000 + 2 * 12_500 + 9_500,
        // weighted over the 6 quotes priced both times: (0×3 + 25×2 − 5×1) / 6 = 7.5; median of 0,0,0,−5,25,25 sorted is 0
        meanChangePercent: 7.5, medianChangePercent: 0,
      },
      { offeringId: 'b', requests: 1, quotes: 5, changedQuotes: 5, totalBeforeMinor: 0, totalAfterMinor: 10_000, meanChangePercent: null, medianChangePercent: null },
    ]);
  });

  it('keeps the largest movers: outcome changes first, then by size of change, then by quotes', () => {
    const tally = new ImpactTally(10, 3);
    tally.add(request(1), priced(10_000), priced(10_500)); // +5%
    tally.add(request(2, 9), priced(10_000), priced(9_000)); // -10% ×9
    tally.add(request(3), priced(10_000), priced(13_000)); // +30%
    tally.add(request(4), priced(10_000), failed);
    tally.add(request(5, 2), priced(10_000), priced(11_000)); // +10% ×2
    tally.add(request(6), priced(10_000), priced(10_000)); // unchanged: never a mover
    expect(tally.largestMovers().map((m) => [m.kind, m.changePercent, m.request.quotes])).toEqual([
      ['newly_failed', null, 1],
      ['higher', 30, 1],
      ['lower', -10, 9],
    ]);
  });
});
