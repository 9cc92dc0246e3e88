// Pure helpers of the benchmark suite: percentiles, summaries, a least-squares fit and the
// text table. No I/O, so they are unit-tested (bench/stats.test.ts).
import type { LoadResult } from './load';

/**
 * The p-th percentile (0..100) of ascending `sorted` values by the nearest-rank method: the
 * smallest value such that at least p% of the values are <= it. NaN for no values.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (p <= 0) return sorted[0];
  if (p >= 100) return sorted[sorted.length - 1];
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export type LatencySummary = { count: number; mean: number; p50: number; p95: number; p99: number; max: number };

/** Summary of raw latencies (any order; the input is not modified). */
export function summarize(values: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

/**
 * Several measured runs of one case as one: requests and seconds added up, every latency
 * summarised together (each run must have kept its latencies), counts added up.
 */
export function poolRuns(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error('poolRuns needs one or more runs');
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  for (const run of runs) {
    if (!run.latencies) throw new Error('poolRuns needs the latencies of every run (keepLatencies)');
    for (const v of run.latencies) latencies.push(v);
    for (const [status, n] of Object.entries(run.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + n;
  }
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const durationSec = sum((run) => run.durationSec);
  return {
    connections: runs[0].connections,
    requests: latencies.length,
    durationSec,
    requestsPerSecond: latencies.length / durationSec,
    latency: summarize(latencies),
    statusCounts,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    firstFailure: runs.find((run) => run.firstFailure)?.firstFailure,
    firstSuccess: runs.find((run) => run.firstSuccess)?.firstSuccess,
    startedAt: Math.min(...runs.map((run) => run.startedAt)),
    endedAt: Math.max(...runs.map((run) => run.endedAt)),
  };
}

/** Least-squares line y = intercept + slope * x, with r². */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; r2: number } {
  const n = xs.length;
  if (n !== ys.length || n < 2) throw new Error('linearFit needs two or more (x, y) pairs');
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept, r2 };
}

/** The median of the known values (the mean of the middle two when their count is even); null when none is known. */
export function median(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const middle = known.length >> 1;
  return known.length % 2 === 1 ? known[middle] : (known[middle - 1] + known[middle]) / 2;
}

/**
 * Side-by-side rounds (bench/cases/experiments.ts): in each, two service processes are measured
 * at the same time, one with the treatment and one without, and the two swap roles from one
 * round to the next. A round's ratio (with over without) carries the machine's moment on both
 * sides alike, but also whatever differs between the two sides (tenant, process); the geometric
 * mean of two consecutive rounds cancels that, since each side is "with" in one of them. The
 * estimate is the median of those pair means; a pair with a missing round is left out.
 */
export function swappedPairsEstimate(roundRatios: readonly (number | null)[]): { pairs: number[]; median: number | null } {
  const pairs: number[] = [];
  for (let i = 0; i + 1 < roundRatios.length; i += 2) {
    const [a, b] = [roundRatios[i], roundRatios[i + 1]];
    if (a !== null && b !== null && a > 0 && b > 0) pairs.push(Math.sqrt(a * b));
  }
  return { pairs, median: median(pairs) };
}

export function ratio(ours: number | null | undefined, reference: number | null | undefined): number | null {
  if (ours == null || reference == null || !Number.isFinite(ours) || !Number.isFinite(reference) || reference === 0) return null;
  return ours / reference;
}

/** Fixed-width text table; numbers right-aligned. */
export function formatTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((row) => row.map((c) => (c === null || c === undefined ? '' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => cells.every((r) => r[i] === undefined || r[i] === '' || /^[-+]?[\d.,]+(x|%| ms| MB)?$/.test(r[i])));
  const line = (r: string[]) =>
    r.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

/** A number for the table: `digits` decimals below 100, none above. */
export function fmt(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}
