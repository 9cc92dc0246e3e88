import {
  CHANGE_BUCKETS,
  CHANGE_KINDS,
  changeBucket,
  changePercent,
  changesByMoreThan,
  classifyChange,
  totalOf,
  type ChangeKind,
  type PricedOutcome,
} from '../pricing/compare';
import type { QuoteInputs } from '../pricing';

/** One distinct request of the window: the answers, the version that priced them, how many quotes. */
export type DistinctRequest = {
  inputs: QuoteInputs;
  /** The version that answered these quotes; null when nothing was published. */
  baselineVersionId: string | null;
  quotes: number;
  /** The newest quote intent with these answers and version. */
  latestIntentId: string;
};

export type KindCounts = Record<ChangeKind, number>;

/** A request whose price moved, as the tally keeps it for the movers list. */
export type MoverCandidate = {
  request: DistinctRequest;
  kind: ChangeKind;
  beforeMinor: number | null;
  afterMinor: number | null;
  changePercent: number | null;
};

type OfferingTally = {
  requests: number;
  quotes: number;
  changedQuotes: number;
  totalBeforeMinor: number;
  totalAfterMinor: number;
  /** Quotes by relative change (0.01% steps), of requests priced both times from more than 0. */
  changes: Map<number, number>;
};

export type OfferingImpact = {
  offeringId: string;
  requests: number;
  quotes: number;
  /** Quotes whose outcome or price differs. */
  changedQuotes: number;
  /** Quoted volume: the sum of each priced quote's total, before and after. */
  totalBeforeMinor: number;
  totalAfterMinor: number;
  /** Over quotes priced both times (from a price above 0), weighted by quotes; null when none. */
  meanChangePercent: number | null;
  medianChangePercent: number | null;
};

export type ImpactFigures = {
  requests: number;
  quotes: number;
  /** Quotes by what happens to them. */
  counts: KindCounts;
  /** Distinct requests by what happens to them. */
  requestCounts: KindCounts;
  histogram: { bucket: string; label: string; quotes: number; requests: number }[];
  offerings: OfferingImpact[];
  /** Quotes that stop being priced or move by more than `significantChangePercent`. */
  significantlyChangedQuotes: number;
};

const zeroCounts = (): KindCounts => Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as KindCounts;

/**
 * Adds up an impact run request by request, keeping only figures (never the outcomes), so that
 * 50,000 requests cost a few numbers each. Pure: the same requests and outcomes in the same
 * order give the same figures.
 */
export class ImpactTally {
  private requests = 0;
  private quotes = 0;
  private significantlyChanged = 0;
  private readonly counts = zeroCounts();
  private readonly requestCounts = zeroCounts();
  private readonly buckets = CHANGE_BUCKETS.map(() => ({ quotes: 0, requests: 0 }));
  private readonly offerings = new Map<string, OfferingTally>();
  /** The largest movers so far, largest first: at most `moverCount`. */
  private readonly movers: MoverCandidate[] = [];

  constructor(
    private readonly significantChangePercent: number,
    private readonly moverCount = 20,
  ) {}

  add(request: DistinctRequest, before: PricedOutcome, after: PricedOutcome): void {
    const kind = classifyChange(before, after);
    const beforeMinor = totalOf(before);
    const afterMinor = totalOf(after);
    const n = request.quotes;
    this.requests += 1;
    this.quotes += n;
    this.counts[kind] += n;
    this.requestCounts[kind] += 1;

    const offering = this.offeringTally(request.inputs.offeringId);
    offering.requests += 1;
    offering.quotes += n;
    if (kind !== 'unchanged') offering.changedQuotes += n;
    if (beforeMinor !== null) offering.totalBeforeMinor += beforeMinor * n;
    if (afterMinor !== null) offering.totalAfterMinor += afterMinor * n;

    let percent: number | null = null;
    if (beforeMinor !== null && afterMinor !== null) {
      const bucket = this.buckets[changeBucket(beforeMinor, afterMinor)];
      bucket.quotes += n;
      bucket.requests += 1;
      percent = changePercent(beforeMinor, afterMinor);
      if (percent !== null) offering.changes.set(percent, (offering.changes.get(percent) ?? 0) + n);
      if (changesByMoreThan(beforeMinor, afterMinor, this.significantChangePercent)) this.significantlyChanged += n;
    } else if (beforeMinor !== null) {
      this.significantlyChanged += n; // priced before, not any more
    }
    if (kind !== 'unchanged') this.consider({ request, kind, beforeMinor, afterMinor, changePercent: percent });
  }

  figures(): ImpactFigures {
    return {
      requests: this.requests,
      quotes: this.quotes,
      counts: { ...this.counts },
      requestCounts: { ...this.requestCounts },
      histogram: CHANGE_BUCKETS.map((bucket, i) => ({ bucket: bucket.id, label: bucket.label, ...this.buckets[i] })),
      offerings: [...this.offerings]
        .map(([offeringId, o]) => ({
          offeringId,
          requests: o.requests,
          quotes: o.quotes,
          changedQuotes: o.changedQuotes,
          totalBeforeMinor: o.totalBeforeMinor,
          totalAfterMinor: o.totalAfterMinor,
          ...meanAndMedian(o.changes),
        }))
        .sort((a, b) => b.quotes - a.quotes || (a.offeringId < b.offeringId ? -1 : 1)),
      significantlyChangedQuotes: this.significantlyChanged,
    };
  }

  /** The largest movers, largest first (see `moverOrder`). */
  largestMovers(): MoverCandidate[] {
    return [...this.movers];
  }

  private consider(candidate: MoverCandidate): void {
    const movers = this.movers;
    if (movers.length === this.moverCount && moverOrder(candidate, movers[movers.length - 1]) >= 0) return;
    let at = movers.length;
    while (at > 0 && moverOrder(candidate, movers[at - 1]) < 0) at--;
    movers.splice(at, 0, candidate);
    if (movers.length > this.moverCount) movers.pop();
  }

  private offeringTally(offeringId: string): OfferingTally {
    let tally = this.offerings.get(offeringId);
    if (!tally) {
      tally = { requests: 0, quotes: 0, changedQuotes: 0, totalBeforeMinor: 0, totalAfterMinor: 0, changes: new Map() };
      this.offerings.set(offeringId, tally);
    }
    return tally;
  }
}

/**
 * Movers in order: first those that start or stop being priced, then by size of the relative
 * change (a rise from 0 is unbounded), then by quotes, then by amount; ties by intent id.
 */
function moverOrder(a: MoverCandidate, b: MoverCandidate): number {
  const size = (m: MoverCandidate) =>
    m.beforeMinor === null || m.afterMinor === null ? Number.POSITIVE_INFINITY : Math.abs(m.changePercent ?? Number.POSITIVE_INFINITY);
  const amount = (m: MoverCandidate) => Math.abs((m.afterMinor ?? 0) - (m.beforeMinor ?? 0));
  const bySize = size(b) - size(a);
  if (bySize !== 0 && !Number.isNaN(bySize)) return bySize;
  return (
    b.request.quotes - a.request.quotes ||
    amount(b) - amount(a) ||
    (a.request.latestIntentId < b.request.latestIntentId ? -1 : a.request.latestIntentId > b.request.latestIntentId ? 1 : 0)
  );
}

/** Weighted by quotes, in ascending order of change; the median is where half the quotes are reached. */
function meanAndMedian(changes: Map<number, number>): { meanChangePercent: number | null; medianChangePercent: number | null } {
  const sorted = [...changes].sort((a, b) => a[0] - b[0]);
  const weight = sorted.reduce((sum, [, quotes]) => sum + quotes, 0);
  if (weight === 0) return { meanChangePercent: null, medianChangePercent: null };
  const mean = sorted.reduce((sum, [percent, quotes]) => sum + percent * quotes, 0) / weight;
  let seen = 0;
  let median = sorted[sorted.length - 1][0];
  for (const [percent, quotes] of sorted) {
    seen += quotes;
    if (seen * 2 >= weight) {
      median = percent;
      break;
    }
  }
  return { meanChangePercent: Math.round(mean * 100) / 100, medianChangePercent: median };
}
