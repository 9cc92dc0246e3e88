import { countForHalfWidth, oneSidedMultiplier, rhoForTarget, twoSidedMultiplier } from './confidence-sequence';

/**
 * The statistics of price experiments: each variant arm against the control, on totals the
 * store sums per arm. Anytime-valid (a confidence sequence, see confidence-sequence.ts), so the
 * results may be read every day without raising the false-positive rate. Pure: no database, no
 * HTTP, no clock. docs/experiments.md, "The statistics", says what the numbers mean.
 */

/**
 * A per-quote amount summed over all of an arm's quotes (0 for a quote that did not count), in
 * integer minor units, and the sum of its squares: the sufficient statistics of its mean and
 * variance. BigInt because the squares pass 2^53 quickly (10M quotes of 1,000.00 is 10^19).
 */
export type AmountTotals = { sum: bigint; sumOfSquares: bigint };

/** What the store sums per arm (quotes priced with the arm's price-book version). */
export type ArmTotals = {
  /** Quotes priced in the arm (n). */
  quotes: number;
  acceptances: number;
  commitments: number;
  wonLeads: number;
  /** Accepted revenue per quote: the quote's price when accepted, 0 otherwise. */
  acceptedRevenue: AmountTotals;
  /** Committed revenue per quote: the committed amount when committed, 0 otherwise. */
  committedRevenue: AmountTotals;
  /** Sum of the prices quoted (minor units), for the average price. */
  quotedPriceSum: bigint;
};

/** What a reader sees of one arm. Rates are fractions; amounts are minor units (fractional). */
export type ArmSummary = {
  quotes: number;
  acceptanceRate: number | null;
  commitmentRate: number | null;
  winRate: number | null;
  revenuePerQuote: number | null;
  committedRevenuePerQuote: number | null;
  averagePrice: number | null;
};

export const METRICS = ['revenue_per_quote', 'acceptance_rate', 'committed_revenue_per_quote'] as const;
export type MetricId = (typeof METRICS)[number];

/** An estimate with its anytime-valid interval (lower ≤ estimate ≤ upper, all finite). */
export type Interval = { estimate: number; lower: number; upper: number };

/**
 * `better`/`worse`: both intervals (absolute and relative) exclude no difference. `same`: the
 * relative interval lies within ± the minimum effect. Otherwise `not_enough_data`.
 */
export type Verdict = 'better' | 'worse' | 'same' | 'not_enough_data';

export type Comparison = {
  metric: MetricId;
  control: { quotes: number; mean: number | null };
  variant: { quotes: number; mean: number | null };
  /** Variant − control, in the metric's unit (minor units per quote, or a rate); null without data. */
  absolute: Interval | null;
  /** (Variant − control) / control, a fraction; null when the control's mean is 0 or unknown. */
  relative: Interval | null;
  verdict: Verdict;
  /** For `not_enough_data`: about how many more quotes each arm needs; null when it cannot be told. */
  moreQuotes: { control: number; variant: number } | null;
  /** The level the reader is told (0.95), and the α this comparison used (split across variants). */
  confidenceLevel: number;
  alpha: number;
  minimumEffect: number;
};

export type StatisticsOptions = {
  /** Error rate for the whole experiment's primary comparisons; 0.05 gives "95%" intervals. */
  alpha?: number;
  /** Quotes (both arms of a comparison together) at which the interval is tuned to be narrowest. */
  plannedQuotes?: number;
  /** No verdict before each arm has this many quotes (the guarantee is asymptotic). */
  minQuotesPerArm?: number;
  /** Relative difference too small to matter (0.05 = 5%): `same` inside it; plans "more quotes". */
  minimumEffect?: number;
};

export type ExperimentResult = {
  control: ArmSummary;
  variants: {
    key: string;
    summary: ArmSummary;
    /** One per metric; `revenue_per_quote` is the primary one. */
    comparisons: Record<MetricId, Comparison>;
  }[];
};

export type GuardrailCheck = {
  /** True: the variant's acceptance rate is below the control's by more than the margin, with confidence. */
  breached: boolean;
  /** Variant − control acceptance rate (fraction); null before either arm has two quotes. */
  difference: number | null;
  /** The one-sided anytime-valid upper bound of that difference; null as `difference`. */
  upperBound: number | null;
  marginPoints: number;
  alpha: number;
};

export const DEFAULTS = { alpha: 0.05, plannedQuotes: 10_000, minQuotesPerArm: 100, minimumEffect: 0.05 } as const;

/** Per-metric sufficient statistics of one arm. */
type Moments = { n: number; sum: bigint; sumOfSquares: bigint; binary: boolean };

function momentsOf(arm: ArmTotals, metric: MetricId): Moments {
  switch (metric) {
    case 'revenue_per_quote':
      return { n: arm.quotes, ...arm.acceptedRevenue, binary: false };
    case 'committed_revenue_per_quote':
      return { n: arm.quotes, ...arm.committedRevenue, binary: false };
    case 'acceptance_rate': {
      const k = BigInt(arm.acceptances);
      return { n: arm.quotes, sum: k, sumOfSquares: k, binary: true };
    }
  }
}

const mean = (m: Moments): number | null => (m.n > 0 ? Number(m.sum) / m.n : null);

/**
 * The sample variance of one quote's value, or null below two quotes. The numerator
 * n·Σx² − (Σx)² is exact in BigInt (the one-pass float formula cancels catastrophically). A rate
 * uses Agresti–Caffo's p̃ = (x+1)/(n+2), so that 0 of 100 does not read as "no variance".
 */
function variance(m: Moments): number | null {
  if (m.n < 2) return null;
  if (m.binary) {
    const p = (Number(m.sum) + 1) / (m.n + 2);
    return p * (1 - p);
  }
  const n = BigInt(m.n);
  const numerator = n * m.sumOfSquares - m.sum * m.sum;
  return Number(numerator) / (m.n * (m.n - 1));
}

export function summarizeArm(arm: ArmTotals): ArmSummary {
  checkArm(arm);
  const n = arm.quotes;
  const per = (x: number | bigint) => (n > 0 ? Number(x) / n : null);
  return {
    quotes: n,
    acceptanceRate: per(arm.acceptances),
    commitmentRate: per(arm.commitments),
    winRate: per(arm.wonLeads),
    revenuePerQuote: per(arm.acceptedRevenue.sum),
    committedRevenuePerQuote: per(arm.committedRevenue.sum),
    averagePrice: per(arm.quotedPriceSum),
  };
}

type Resolved = Required<StatisticsOptions>;

function resolve(options: StatisticsOptions): Resolved {
  const o = { ...DEFAULTS, ...options };
  if (!(o.alpha > 0 && o.alpha < 0.5)) throw new RangeError(`alpha must be in (0, 0.5), got ${o.alpha}`);
  if (!(o.plannedQuotes >= 2)) throw new RangeError(`plannedQuotes must be at least 2, got ${o.plannedQuotes}`);
  if (!(o.minQuotesPerArm >= 2)) throw new RangeError(`minQuotesPerArm must be at least 2, got ${o.minQuotesPerArm}`);
  if (!(o.minimumEffect > 0 && Number.isFinite(o.minimumEffect))) throw new RangeError(`minimumEffect must be positive, got ${o.minimumEffect}`);
  return o;
}

/**
 * One metric, one variant against the control, at level `alpha` (as given: `compareExperiment`
 * splits the experiment's α across its variants before calling this).
 */
export function compareArms(control: ArmTotals, variant: ArmTotals, metric: MetricId, options: StatisticsOptions = {}): Comparison {
  checkArm(control);
  checkArm(variant);
  const o = resolve(options);
  const a = momentsOf(control, metric);
  const b = momentsOf(variant, metric);
  const muA = mean(a);
  const muB = mean(b);
  const base = {
    metric,
    control: { quotes: a.n, mean: muA },
    variant: { quotes: b.n, mean: muB },
    confidenceLevel: 1 - o.alpha,
    alpha: o.alpha,
    minimumEffect: o.minimumEffect,
  };
  const burnIn = (n: number) => Math.max(0, o.minQuotesPerArm - n);
  const vA = variance(a);
  const vB = variance(b);
  if (muA === null || muB === null || vA === null || vB === null) {
    return { ...base, absolute: null, relative: null, verdict: 'not_enough_data', moreQuotes: { control: burnIn(a.n), variant: burnIn(b.n) } };
  }

  // The difference of means is asymptotically linear in the quotes of both arms together, with
  // variance V = s²_A/n_A + s²_B/n_B: the boundary counts t = n_A + n_B observations.
  const t = a.n + b.n;
  const rho = rhoForTarget(o.plannedQuotes, o.alpha);
  const k = twoSidedMultiplier(t, o.alpha, rho);
  const seAbs = Math.sqrt(vA / a.n + vB / b.n);
  const diff = muB - muA;
  const absolute = interval(diff, k * seAbs);
  // Relative by the delta method on μ_B/μ_A − 1: the control's own uncertainty is counted.
  const seRel = muA !== 0 ? Math.sqrt(vB / b.n / (muA * muA) + (muB * muB * vA) / a.n / muA ** 4) : null;
  const relative = seRel !== null && Number.isFinite(seRel) ? interval(diff / muA, k * seRel) : null;

  const burnedIn = a.n >= o.minQuotesPerArm && b.n >= o.minQuotesPerArm;
  const ready = burnedIn && seAbs > 0;
  let verdict: Verdict = 'not_enough_data';
  if (ready) {
    if (absolute.lower > 0 && (relative === null || relative.lower > 0)) verdict = 'better';
    else if (absolute.upper < 0 && (relative === null || relative.upper < 0)) verdict = 'worse';
    else if (relative !== null && relative.lower > -o.minimumEffect && relative.upper < o.minimumEffect) verdict = 'same';
  }
  if (verdict !== 'not_enough_data') return { ...base, absolute, relative, verdict, moreQuotes: null };

  // Plan: the interval's half-width must fall to max(|observed difference|, minimum effect / 2).
  // Then, if the estimate holds, it either excludes 0 or lies within ± the minimum effect.
  let needed: number | null = null;
  if (seAbs > 0) {
    const targetAbs = Math.max(Math.abs(diff), (o.minimumEffect * Math.abs(muA)) / 2);
    needed = countForHalfWidth(seAbs * Math.sqrt(t), targetAbs, o.alpha, rho, t);
    if (needed !== null && seRel !== null && relative !== null) {
      const targetRel = Math.max(Math.abs(relative.estimate), o.minimumEffect / 2);
      const neededRel = countForHalfWidth(seRel * Math.sqrt(t), targetRel, o.alpha, rho, t);
      needed = neededRel === null ? null : Math.max(needed, neededRel);
    }
  }
  const moreQuotes =
    needed === null
      ? burnedIn
        ? null
        : { control: burnIn(a.n), variant: burnIn(b.n) }
      : {
          // The split so far continues; at least one more quote (the interval is not there yet).
          control: Math.max(burnIn(a.n), Math.ceil((needed * a.n) / t) - a.n, 1),
          variant: Math.max(burnIn(b.n), Math.ceil((needed * b.n) / t) - b.n, 1),
        };
  return { ...base, absolute, relative, verdict, moreQuotes };
}

/**
 * Every variant against the control on every metric. The experiment's α is split evenly across
 * its variants (Bonferroni), so that "95%" holds for all variants' primary comparisons at once.
 */
export function compareExperiment(control: ArmTotals, variants: Record<string, ArmTotals>, options: StatisticsOptions = {}): ExperimentResult {
  const o = resolve(options);
  const keys = Object.keys(variants);
  const perVariant = { ...o, alpha: o.alpha / Math.max(1, keys.length) };
  return {
    control: summarizeArm(control),
    variants: keys.map((key) => ({
      key,
      summary: summarizeArm(variants[key]),
      comparisons: Object.fromEntries(
        // Each comparison at α / variants; the reader is told the experiment's level.
        METRICS.map((m) => [m, { ...compareArms(control, variants[key], m, perVariant), confidenceLevel: 1 - o.alpha }]),
      ) as Record<MetricId, Comparison>,
    })),
  };
}

/**
 * For automatic pausing: is the variant's acceptance rate below the control's by more than
 * `marginPoints` (0.03 = 3 percentage points), with one-sided anytime-valid confidence 1 − α?
 * Read it as often as one likes: the chance it ever fires while the true drop is within the
 * margin stays below α (asymptotically).
 */
export function acceptanceGuardrail(
  control: ArmTotals,
  variant: ArmTotals,
  options: { marginPoints: number } & Pick<StatisticsOptions, 'alpha' | 'plannedQuotes' | 'minQuotesPerArm'>,
): GuardrailCheck {
  checkArm(control);
  checkArm(variant);
  const o = resolve(options);
  const marginPoints = options.marginPoints;
  if (!(marginPoints >= 0 && marginPoints < 1)) throw new RangeError(`marginPoints must be in [0, 1), got ${marginPoints}`);
  const a = momentsOf(control, 'acceptance_rate');
  const b = momentsOf(variant, 'acceptance_rate');
  const vA = variance(a);
  const vB = variance(b);
  if (vA === null || vB === null) return { breached: false, difference: null, upperBound: null, marginPoints, alpha: o.alpha };
  const t = a.n + b.n;
  const difference = Number(b.sum) / b.n - Number(a.sum) / a.n;
  const upperBound = difference + oneSidedMultiplier(t, o.alpha, rhoForTarget(o.plannedQuotes, o.alpha)) * Math.sqrt(vA / a.n + vB / b.n);
  const ready = a.n >= o.minQuotesPerArm && b.n >= o.minQuotesPerArm;
  return { breached: ready && upperBound < -marginPoints, difference, upperBound, marginPoints, alpha: o.alpha };
}

function interval(estimate: number, halfWidth: number): Interval {
  return { estimate, lower: estimate - halfWidth, upper: estimate + halfWidth };
}

function checkArm(arm: ArmTotals): void {
  const counts = { quotes: arm.quotes, acceptances: arm.acceptances, commitments: arm.commitments, wonLeads: arm.wonLeads };
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  for (const name of ['acceptances', 'commitments', 'wonLeads'] as const) {
    if (arm[name] > arm.quotes) throw new RangeError(`${name} (${arm[name]}) exceeds quotes (${arm.quotes})`);
  }
  for (const name of ['acceptedRevenue', 'committedRevenue'] as const) {
    const { sum, sumOfSquares } = arm[name];
    // Cauchy–Schwarz: (Σx)² ≤ n·Σx²; totals that break it were not summed from one arm's quotes.
    if (sumOfSquares < 0n || BigInt(arm.quotes) * sumOfSquares < sum * sum || (arm.quotes === 0 && sum !== 0n)) {
      throw new RangeError(`${name} totals are inconsistent with ${arm.quotes} quotes`);
    }
  }
}
