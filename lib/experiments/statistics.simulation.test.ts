import { describe, expect, it } from 'vitest';
import { prng } from '../testing/generate-book';
import { rhoForTarget, twoSidedMultiplier } from './confidence-sequence';
import { acceptanceGuardrail, compareArms, METRICS, type ArmTotals, type MetricId } from './statistics';

/**
 * Monte-Carlo checks of the guarantee, deterministic (seeded mulberry32). Each simulated
 * experiment runs 30 days; every quote is drawn (arm by a fair coin, accepted with the arm's
 * rate; an accepted quote's price from a log-normal in integer minor units, committed with 70%
 * of acceptances), the day's totals are added to the arm's (BigInt) and the results are read
 * every day, as people would. About 21M quotes in all: a few seconds.
 */

type ArmModel = { acceptance: number; medianPrice: number; sigma: number };

const COMMIT_SHARE = 0.7;
const DAYS = 30;

/** Expected revenue per quote: acceptance × E[price] (log-normal mean: median·e^{σ²/2}). */
const revenuePerQuote = (m: ArmModel) => m.acceptance * m.medianPrice * Math.exp((m.sigma * m.sigma) / 2);

function emptyArm(): ArmTotals {
  return {
    quotes: 0,
    acceptances: 0,
    commitments: 0,
    wonLeads: 0,
    acceptedRevenue: { sum: 0n, sumOfSquares: 0n },
    committedRevenue: { sum: 0n, sumOfSquares: 0n },
    quotedPriceSum: 0n,
  };
}

/** Simulates one experiment and calls `read` with both arms' running totals after each day. */
function runExperiment(random: () => number, quotesPerDay: number, models: [ArmModel, ArmModel], read: (day: number, arms: [ArmTotals, ArmTotals]) => void): void {
  const arms: [ArmTotals, ArmTotals] = [emptyArm(), emptyArm()];
  const meanPrice = models.map((m) => m.medianPrice * Math.exp((m.sigma * m.sigma) / 2));
  // One day's sums stay far below 2^53 in floats; the running totals are BigInt.
  const day = [new Float64Array(8), new Float64Array(8)];
  let spare: number | null = null;
  const gaussian = () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - random();
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  for (let d = 1; d <= DAYS; d++) {
    day[0].fill(0);
    day[1].fill(0);
    for (let q = 0; q < quotesPerDay; q++) {
      const arm = random() < 0.5 ? 0 : 1;
      const m = models[arm];
      const s = day[arm];
      s[0] += 1;
      if (random() < m.acceptance) {
        // Price drawn only when it counts (accepted): the statistics never read unaccepted prices.
        const price = Math.round(m.medianPrice * Math.exp(m.sigma * gaussian()));
        s[1] += 1;
        s[2] += price;
        s[3] += price * price;
        if (random() < COMMIT_SHARE) {
          s[4] += 1;
          s[5] += price;
          s[6] += price * price;
        }
      }
    }
    for (const i of [0, 1] as const) {
      const s = day[i];
      const a = arms[i];
      arms[i] = {
        quotes: a.quotes + s[0],
        acceptances: a.acceptances + s[1],
        commitments: a.commitments + s[4],
        wonLeads: a.wonLeads + s[4],
        acceptedRevenue: { sum: a.acceptedRevenue.sum + BigInt(s[2]), sumOfSquares: a.acceptedRevenue.sumOfSquares + BigInt(s[3]) },
        committedRevenue: { sum: a.committedRevenue.sum + BigInt(s[5]), sumOfSquares: a.committedRevenue.sumOfSquares + BigInt(s[6]) },
        quotedPriceSum: a.quotedPriceSum + BigInt(Math.round(s[0] * meanPrice[i])),
      };
    }
    read(d, arms);
  }
}

/** Three standard errors of a Monte-Carlo proportion p over n runs: the honest slack. */
const mcSlack = (p: number, n: number) => 3 * Math.sqrt((p * (1 - p)) / n);

describe('A/A: reading every day does not inflate false positives', () => {
  const RUNS = 1000;
  const QUOTES_PER_DAY = 400;
  const model: ArmModel = { acceptance: 0.25, medianPrice: 40_000, sigma: 0.5 };

  it(`declares a difference in at most α = 5% of ${RUNS} experiments (30 daily reads each), on every metric`, () => {
    const random = prng(4101);
    const everDifferent: Record<MetricId, number> = { revenue_per_quote: 0, acceptance_rate: 0, committed_revenue_per_quote: 0 };
    let guardrailFired = 0;
    // The contrast: a fixed-sample 95% interval (±1.96 standard errors) read the same 30 times.
    let naiveEver = 0;
    const rho = rhoForTarget(DAYS * QUOTES_PER_DAY, 0.05);
    const started = performance.now();
    for (let run = 0; run < RUNS; run++) {
      const flagged = new Set<MetricId>();
      let fired = false;
      let naive = false;
      // Acceptance varies between runs (20–30%), as it does between businesses.
      const m = { ...model, acceptance: 0.2 + 0.1 * random() };
      runExperiment(random, QUOTES_PER_DAY, [m, m], (_day, [a, b]) => {
        for (const metric of METRICS) {
          const { verdict, absolute } = compareArms(a, b, metric, { plannedQuotes: DAYS * QUOTES_PER_DAY });
          if (verdict === 'better' || verdict === 'worse') flagged.add(metric);
          if (metric === 'revenue_per_quote' && absolute) {
            const se = (absolute.upper - absolute.estimate) / twoSidedMultiplier(a.quotes + b.quotes, 0.05, rho);
            if (Math.abs(absolute.estimate) > 1.96 * se) naive = true;
          }
        }
        if (acceptanceGuardrail(a, b, { marginPoints: 0, plannedQuotes: DAYS * QUOTES_PER_DAY }).breached) fired = true;
      });
      for (const metric of flagged) everDifferent[metric]++;
      if (fired) guardrailFired++;
      if (naive) naiveEver++;
    }
    const rates = Object.fromEntries(METRICS.map((m) => [m, everDifferent[m] / RUNS]));
    console.info(`A/A over ${RUNS} runs × ${DAYS} daily reads: ever declared different`, rates, `guardrail (margin 0, one-sided) fired: ${guardrailFired / RUNS}`, `fixed-sample 95% read daily: ${naiveEver / RUNS}`, `${Math.round(performance.now() - started)} ms`);
    const bound = 0.05 + mcSlack(0.05, RUNS); // ≈ 0.071
    for (const metric of METRICS) expect(rates[metric]).toBeLessThanOrEqual(bound);
    expect(guardrailFired / RUNS).toBeLessThanOrEqual(bound);
    // The harness has teeth: the fixed-sample interval, peeked at daily, is fooled far more often.
    expect(naiveEver / RUNS).toBeGreaterThan(0.1);
  });
});

describe('A/B: a real +15% in revenue per quote', () => {
  const RUNS = 500;
  const QUOTES_PER_DAY = 600;
  // B prices 25% higher and loses some acceptances: 0.23 × 1.25 = 0.2875 = 1.15 × 0.25.
  const control: ArmModel = { acceptance: 0.25, medianPrice: 40_000, sigma: 0.5 };
  const variant: ArmModel = { acceptance: 0.23, medianPrice: 50_000, sigma: 0.5 };
  const trueRelative = revenuePerQuote(variant) / revenuePerQuote(control) - 1;
  const trueAbsolute = revenuePerQuote(variant) - revenuePerQuote(control);

  it(`is found in most of ${RUNS} experiments, and the interval covers the truth at every daily read in ≥ 95%`, () => {
    expect(trueRelative).toBeCloseTo(0.15, 10);
    const random = prng(4102);
    let found = 0;
    let wrongWay = 0;
    let coveredAlways = 0;
    let coveredAtEnd = 0;
    let firstFoundDays = 0;
    const started = performance.now();
    for (let run = 0; run < RUNS; run++) {
      let foundOn: number | null = null;
      let missed = false;
      let endCovered = false;
      runExperiment(random, QUOTES_PER_DAY, [control, variant], (day, [a, b]) => {
        const c = compareArms(a, b, 'revenue_per_quote', { plannedQuotes: DAYS * QUOTES_PER_DAY });
        if (c.verdict === 'better' && foundOn === null) foundOn = day;
        if (c.verdict === 'worse') wrongWay++;
        const covers =
          c.absolute !== null &&
          c.relative !== null &&
          c.absolute.lower <= trueAbsolute &&
          trueAbsolute <= c.absolute.upper &&
          c.relative.lower <= trueRelative &&
          trueRelative <= c.relative.upper;
        if (!covers) missed = true;
        if (day === DAYS) endCovered = covers;
      });
      if (foundOn !== null) {
        found++;
        firstFoundDays += foundOn;
      }
      if (!missed) coveredAlways++;
      if (endCovered) coveredAtEnd++;
    }
    console.info(
      `A/B +15% over ${RUNS} runs × ${DAYS} days (${QUOTES_PER_DAY} quotes/day): found ${found / RUNS}`,
      `(mean first day ${(firstFoundDays / Math.max(found, 1)).toFixed(1)}), declared worse ${wrongWay}`,
      `covered at every read ${coveredAlways / RUNS}, at day ${DAYS} ${coveredAtEnd / RUNS}`,
      `${Math.round(performance.now() - started)} ms`,
    );
    expect(found / RUNS).toBeGreaterThanOrEqual(0.8);
    expect(wrongWay).toBe(0);
    expect(coveredAlways / RUNS).toBeGreaterThanOrEqual(0.95);
    expect(coveredAtEnd / RUNS).toBeGreaterThanOrEqual(0.95);
  });

  it('the guardrail pauses a variant that loses 8 points of acceptance, and not one within the margin', () => {
    const random = prng(4103);
    let pausedBad = 0;
    let pausedFine = 0;
    const RUNS_G = 100;
    const bad: ArmModel = { ...control, acceptance: 0.17 };
    const fine: ArmModel = { ...control, acceptance: 0.24 };
    for (let run = 0; run < RUNS_G; run++) {
      let b = false;
      let f = false;
      runExperiment(random, 200, [control, bad], (_d, [x, y]) => {
        b ||= acceptanceGuardrail(x, y, { marginPoints: 0.03 }).breached;
      });
      runExperiment(random, 200, [control, fine], (_d, [x, y]) => {
        f ||= acceptanceGuardrail(x, y, { marginPoints: 0.03 }).breached;
      });
      if (b) pausedBad++;
      if (f) pausedFine++;
    }
    console.info(`guardrail, margin 3 points, ${RUNS_G} runs: paused an 8-point drop ${pausedBad / RUNS_G}, a 1-point drop ${pausedFine / RUNS_G}`);
    expect(pausedBad / RUNS_G).toBeGreaterThanOrEqual(0.9);
    expect(pausedFine).toBe(0);
  });
});
