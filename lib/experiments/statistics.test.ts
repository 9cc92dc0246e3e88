import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalCdf, oneSidedMultiplier, rhoForTarget, twoSidedMultiplier } from './confidence-sequence';
import { describeComparison, describeGuardrail } from './plain-words';
import { acceptanceGuardrail, compareArms, compareExperiment, METRICS, summarizeArm, type ArmTotals, type Comparison } from './statistics';

const labels = { control: 'A', variant: 'B' };

/**
 * An arm built from groups of quotes with one amount each: `accepted` groups are accepted (and
 * committed) at `amount` minor units; the other quotes are not accepted. Totals are exact.
 */
function arm(quotes: number, accepted: { count: number; amount: number }[] = []): ArmTotals {
  let acceptances = 0;
  let sum = 0n;
  let sumOfSquares = 0n;
  for (const { count, amount } of accepted) {
    acceptances += count;
    sum += BigInt(count) * BigInt(amount);
    sumOfSquares += BigInt(count) * BigInt(amount) * BigInt(amount);
  }
  return {
    quotes,
    acceptances,
    commitments: acceptances,
    wonLeads: acceptances,
    acceptedRevenue: { sum, sumOfSquares },
    committedRevenue: { sum, sumOfSquares },
    quotedPriceSum: sum,
  };
}

/** The same arm with every total multiplied by `factor` (same means and variances, more quotes). */
function scaled(a: ArmTotals, factor: number): ArmTotals {
  const f = BigInt(factor);
  return {
    quotes: a.quotes * factor,
    acceptances: a.acceptances * factor,
    commitments: a.commitments * factor,
    wonLeads: a.wonLeads * factor,
    acceptedRevenue: { sum: a.acceptedRevenue.sum * f, sumOfSquares: a.acceptedRevenue.sumOfSquares * f },
    committedRevenue: { sum: a.committedRevenue.sum * f, sumOfSquares: a.committedRevenue.sumOfSquares * f },
    quotedPriceSum: a.quotedPriceSum * f,
  };
}

function expectFinite(c: Comparison): void {
  const numbers = [c.control.mean, c.variant.mean, c.absolute?.estimate, c.absolute?.lower, c.absolute?.upper, c.relative?.estimate, c.relative?.lower, c.relative?.upper, c.moreQuotes?.control, c.moreQuotes?.variant];
  for (const x of numbers) if (x !== null && x !== undefined) expect(Number.isFinite(x), `${x} in ${JSON.stringify(c)}`).toBe(true);
  for (const i of [c.absolute, c.relative]) if (i) expect(i.lower <= i.estimate && i.estimate <= i.upper).toBe(true);
  if (c.moreQuotes) for (const n of [c.moreQuotes.control, c.moreQuotes.variant]) expect(Number.isInteger(n) && n >= 0).toBe(true);
  expect(describeComparison(c, labels)).not.toMatch(/NaN|Infinity|undefined|null/);
}

describe('the boundary (confidence-sequence.ts)', () => {
  it('is about 3 standard errors at its target count for 95%, wider than the fixed-sample 1.96', () => {
    const rho = rhoForTarget(10_000, 0.05);
    expect(twoSidedMultiplier(10_000, 0.05, rho)).toBeCloseTo(3.035, 3);
    // As written in Waudby-Smith et al. (σ = 1): √(2(tρ²+1)/(t²ρ²) · log(√(tρ²+1)/α)), times √t.
    const paper = (t: number) => Math.sqrt(((2 * (t * rho ** 2 + 1)) / (t ** 2 * rho ** 2)) * Math.log(Math.sqrt(t * rho ** 2 + 1) / 0.05)) * Math.sqrt(t);
    for (const t of [10, 5_000, 10_000, 1e7]) expect(twoSidedMultiplier(t, 0.05, rho)).toBeCloseTo(paper(t), 10);
    for (const t of [100, 1_000, 100_000, 10_000_000]) expect(twoSidedMultiplier(t, 0.05, rho)).toBeGreaterThan(1.96);
  });

  it('one-sided is narrower than two-sided at the same α, and wider than two-sided at 2α', () => {
    const rho = rhoForTarget(10_000, 0.05);
    for (const t of [100, 10_000, 1_000_000]) {
      const one = oneSidedMultiplier(t, 0.05, rho);
      expect(one).toBeLessThan(twoSidedMultiplier(t, 0.05, rho));
      expect(one).toBeGreaterThan(twoSidedMultiplier(t, 0.1, rho));
    }
  });

  it('Φ is accurate', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013499, 6);
  });
});

describe('compareArms', () => {
  it('zero quotes: no interval, no verdict, every arm needs the burn-in; summaries are null, not NaN', () => {
    const c = compareArms(arm(0), arm(0), 'revenue_per_quote');
    expect(c).toMatchObject({ absolute: null, relative: null, verdict: 'not_enough_data', moreQuotes: { control: 100, variant: 100 } });
    expect(describeComparison(c, labels)).toBe('Not enough data yet: no quotes yet');
    expect(summarizeArm(arm(0))).toEqual({ quotes: 0, acceptanceRate: null, commitmentRate: null, winRate: null, revenuePerQuote: null, committedRevenuePerQuote: null, averagePrice: null });
    for (const metric of METRICS) expectFinite(compareArms(arm(0), arm(0), metric));
  });

  it('one arm empty: says which arm needs quotes', () => {
    const full = arm(500, [{ count: 120, amount: 45_000 }]);
    const c = compareArms(arm(0), full, 'revenue_per_quote');
    expect(c).toMatchObject({ absolute: null, verdict: 'not_enough_data', moreQuotes: { control: 100, variant: 0 } });
    expect(describeComparison(c, labels)).toBe('Not enough data yet: about 100 more quotes for A');
    expect(compareArms(full, arm(1), 'acceptance_rate').moreQuotes).toEqual({ control: 0, variant: 99 });
    for (const metric of METRICS) expectFinite(compareArms(full, arm(0), metric));
  });

  it('zero variance: no acceptances anywhere, or every quote accepted at one price, declares nothing', () => {
    const none = compareArms(arm(200), arm(200), 'revenue_per_quote');
    expect(none).toMatchObject({ absolute: { estimate: 0, lower: 0, upper: 0 }, relative: null, verdict: 'not_enough_data', moreQuotes: null });
    expect(describeComparison(none, labels)).toBe('Not enough data yet: too little variation to tell how many more quotes are needed');
    // A rate of 0 of 200 still has uncertainty (Agresti–Caffo): a finite, non-degenerate interval.
    const rate = compareArms(arm(200), arm(200), 'acceptance_rate');
    expect(rate.absolute!.upper).toBeGreaterThan(0);
    const flat = compareArms(arm(200, [{ count: 200, amount: 10_000 }]), arm(200, [{ count: 200, amount: 12_000 }]), 'revenue_per_quote');
    expect(flat.verdict).toBe('not_enough_data');
    for (const c of [none, rate, flat]) expectFinite(c);
  });

  it('huge numbers: 10M quotes with revenue sums near 2^53 and squares near 2^85 stay exact', () => {
    // 2.5M of 10M quotes accepted at one amount: variance p(1−p)x², exactly.
    const x = 3_602_879_701; // 2.5M × x ≈ 2^53
    const a = arm(10_000_000, [{ count: 2_500_000, amount: x }]);
    const b = arm(10_000_000, [{ count: 2_500_100, amount: x }]);
    expect(a.acceptedRevenue.sum).toBeGreaterThan(2n ** 52n);
    const c = compareArms(a, b, 'revenue_per_quote');
    expect(c.absolute!.estimate).toBeCloseTo((100 * x) / 10_000_000, 6);
    const se = Math.sqrt((2 * (0.25 * 0.75 * x * x * 10_000_000)) / 9_999_999 / 10_000_000);
    const k = twoSidedMultiplier(20_000_000, 0.05, rhoForTarget(10_000, 0.05));
    expect((c.absolute!.upper - c.absolute!.estimate) / (k * se)).toBeCloseTo(1, 4);
    expect(c.verdict).toBe('same'); // 0.004% apart, measured to within ±0.2%
    for (const metric of METRICS) expectFinite(compareArms(a, b, metric));
    // Beyond 2^53 and 2^64: still finite.
    const giant = arm(10_000_000, [{ count: 9_000_000, amount: 9_007_199_254_740_991 }]);
    for (const metric of METRICS) expectFinite(compareArms(giant, a, metric));
  });

  it('a clear uplift reads as better, a clear loss as worse, and a close result as the same', () => {
    const a = arm(10_000, [
      { count: 1_500, amount: 30_000 },
      { count: 1_000, amount: 60_000 },
    ]);
    const up = arm(10_000, [
      { count: 1_700, amount: 30_000 },
      { count: 1_200, amount: 60_000 },
    ]);
    const better = compareArms(a, up, 'revenue_per_quote');
    expect(better.verdict).toBe('better');
    expect(better.relative!.estimate).toBeCloseTo(1_230 / 1_050 - 1, 10);
    expect(describeComparison(better, labels)).toMatch(/^B brings 17% more revenue per quote \(95%: between \+\d+(\.\d)?% and \+\d+%\)$/);
    const worse = compareArms(up, a, 'revenue_per_quote');
    expect(worse.verdict).toBe('worse');
    expect(describeComparison(worse, labels)).toMatch(/^B brings 15% less revenue per quote \(95%: between -\d+% and -\d+(\.\d)?%\)$/);
    const same = compareArms(scaled(a, 50), scaled(a, 50), 'acceptance_rate');
    expect(same.verdict).toBe('same');
    expect(describeComparison(same, labels)).toMatch(/^B and A bring the same acceptances per quote within 5% \(95%: between -\d(\.\d)?% and \+\d(\.\d)?%\)$/);
  });

  it('"more quotes" is a plan that works: at that many quotes, with the same figures, a verdict is reached', () => {
    const a = arm(2_000, [{ count: 500, amount: 40_000 }]);
    const b = arm(2_000, [{ count: 530, amount: 40_000 }]); // +6%
    const c = compareArms(a, b, 'revenue_per_quote');
    expect(c.verdict).toBe('not_enough_data');
    const more = c.moreQuotes!.control;
    expect(c.moreQuotes!.variant).toBe(more);
    expect(describeComparison(c, labels)).toMatch(/^Not enough data yet: about [\d,]+ more quotes per arm \(so far B brings 6% more revenue per quote, 95%: between -\d+% and \+\d+%\)$/);
    const factor = Math.ceil((2_000 + more) / 2_000);
    expect(compareArms(scaled(a, factor), scaled(b, factor), 'revenue_per_quote').verdict).toBe('better');
    // Well short of it, still not.
    expect(compareArms(scaled(a, 2), scaled(b, 2), 'revenue_per_quote').verdict).toBe('not_enough_data');
  });

  it('never declares before the burn-in, however lopsided', () => {
    const c = compareArms(arm(50, []), arm(50, [{ count: 50, amount: 10_000 }]), 'acceptance_rate');
    expect(c.verdict).toBe('not_enough_data');
    expect(c.moreQuotes).toEqual({ control: 50, variant: 50 });
  });

  it('refuses totals that cannot come from one arm', () => {
    expect(() => compareArms(arm(10, [{ count: 11, amount: 1 }]), arm(10), 'revenue_per_quote')).toThrow(RangeError);
    const broken = { ...arm(10, [{ count: 5, amount: 100 }]), acceptedRevenue: { sum: 500n, sumOfSquares: 10n } };
    expect(() => compareArms(broken, arm(10), 'revenue_per_quote')).toThrow(/inconsistent/);
    expect(() => compareArms(arm(1.5), arm(10), 'revenue_per_quote')).toThrow(/non-negative integer/);
    expect(() => compareArms(arm(10), arm(10), 'revenue_per_quote', { alpha: 0 })).toThrow(/alpha/);
  });

  it('outputs are always finite, ordered and worded (property)', () => {
    const group = fc.record({ count: fc.integer({ min: 0, max: 2_000_000 }), amount: fc.integer({ min: 0, max: 1_000_000_000 }) });
    const armArb = fc.tuple(fc.integer({ min: 0, max: 3_000_000 }), fc.array(group, { maxLength: 3 })).map(([rejected, groups]) => arm(rejected + groups.reduce((s, g) => s + g.count, 0), groups));
    fc.assert(
      fc.property(armArb, armArb, (a, b) => {
        for (const metric of METRICS) expectFinite(compareArms(a, b, metric));
        const g = acceptanceGuardrail(a, b, { marginPoints: 0.02 });
        for (const x of [g.difference, g.upperBound]) if (x !== null) expect(Number.isFinite(x)).toBe(true);
      }),
      { numRuns: 300, seed: 41 },
    );
  });
});

describe('compareExperiment', () => {
  it('splits α across variants so that "95%" holds for all of them at once', () => {
    const a = arm(1_000, [{ count: 250, amount: 40_000 }]);
    const result = compareExperiment(a, { B: arm(1_000, [{ count: 260, amount: 40_000 }]), C: arm(1_000, [{ count: 240, amount: 41_000 }]) });
    expect(result.variants.map((v) => v.key)).toEqual(['B', 'C']);
    for (const v of result.variants) {
      expect(Object.keys(v.comparisons)).toEqual([...METRICS]);
      expect(v.comparisons.revenue_per_quote).toMatchObject({ alpha: 0.025, confidenceLevel: 0.95 });
    }
    expect(result.control.acceptanceRate).toBe(0.25);
    expect(result.control.averagePrice).toBe(10_000);
    // One variant: the whole α, and the interval is narrower than with two.
    const single = compareExperiment(a, { B: arm(1_000, [{ count: 260, amount: 40_000 }]) }).variants[0].comparisons.revenue_per_quote;
    const split = result.variants[0].comparisons.revenue_per_quote;
    expect(single.alpha).toBe(0.05);
    expect(single.absolute!.upper - single.absolute!.lower).toBeLessThan(split.absolute!.upper - split.absolute!.lower);
    expect(compareExperiment(arm(0), {}).variants).toEqual([]);
  });
});

describe('acceptanceGuardrail', () => {
  it('fires only when the drop beyond the margin is shown', () => {
    const a = arm(5_000, [{ count: 1_400, amount: 40_000 }]); // 28%
    const drop = arm(5_000, [{ count: 1_000, amount: 40_000 }]); // 20%: 8 points
    const g = acceptanceGuardrail(a, drop, { marginPoints: 0.03 });
    expect(g.breached).toBe(true);
    expect(g.difference).toBeCloseTo(-0.08, 10);
    expect(describeGuardrail(g, labels)).toMatch(/^Pause B: its acceptance rate is more than 3 points below A's \(95%: at least \d\.\d points below\)$/);
    const small = acceptanceGuardrail(a, arm(5_000, [{ count: 1_350, amount: 40_000 }]), { marginPoints: 0.03 });
    expect(small.breached).toBe(false);
    expect(describeGuardrail(small, labels)).toBe("B's acceptance rate is not shown to be more than 3 points below A's");
    expect(acceptanceGuardrail(arm(0), arm(0), { marginPoints: 0.03 })).toMatchObject({ breached: false, difference: null, upperBound: null });
    // Not before the burn-in.
    expect(acceptanceGuardrail(arm(60, [{ count: 30, amount: 1 }]), arm(60), { marginPoints: 0.03 }).breached).toBe(false);
  });
});

describe('describeComparison', () => {
  it('says "the same so far" rather than "0% more"', () => {
    const a = arm(2_000, [{ count: 500, amount: 40_000 }]);
    expect(describeComparison(compareArms(a, a, 'revenue_per_quote'), labels)).toMatch(
      /^Not enough data yet: about [\d,]+ more quotes per arm \(so far B and A bring the same revenue per quote, 95%: between -17% and \+17%\)$/,
    );
  });
});
