import { describe, expect, it } from 'vitest';
import { bookArtifactSchema, compileBook, evaluate } from '../lib/pricing';
import { generateBook, generateInputs } from '../lib/testing/generate-book';
import type { LoadResult } from './load';
import { fmt, formatTable, linearFit, median, percentile, poolRuns, ratio, summarize, swappedPairsEstimate } from './stats';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('picks the smallest value with at least p% at or below it', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 99.9)).toBe(100);
    expect(percentile([5, 7, 9], 50)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  });

  it('handles the edges', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([3], 1)).toBe(3);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile(hundred, 100)).toBe(100);
  });

  it('summarize sorts a copy and reports mean and max', () => {
    const values = [9, 1, 5, 3, 7];
    const s = summarize(values);
    expect(values).toEqual([9, 1, 5, 3, 7]);
    expect(s).toEqual({ count: 5, mean: 5, p50: 5, p95: 9, p99: 9, max: 9 });
  });
});

describe('poolRuns', () => {
  const run = (latencies: number[], durationSec: number, statusCounts: Record<string, number>, startedAt: number): LoadResult => ({
    connections: 32,
    requests: latencies.length,
    durationSec,
    requestsPerSecond: latencies.length / durationSec,
    latency: summarize(latencies),
    statusCounts,
    non2xx: statusCounts['500'] ?? 0,
    errors: 0,
    timeouts: 0,
    startedAt,
    endedAt: startedAt + durationSec * 1000,
    latencies,
  });

  it('adds requests and seconds and takes percentiles over every latency, not of the runs', () => {
    // One slow run: its own p99 is 90, the other's 10. Pooled, its 50 slow answers are 0.5% of
    // 9,900: the p99 is 10 and only the max is 90 (averaging the runs' p99s would say 50).
    const fast = run(Array.from({ length: 4950 }, () => 10), 10, { '201': 4950 }, 1_000);
    const slow = run([...Array.from({ length: 4900 }, () => 10), ...Array.from({ length: 50 }, () => 90)], 10, { '201': 4949, '500': 1 }, 30_000);
    const pooled = poolRuns([fast, slow]);
    expect(pooled.requests).toBe(9900);
    expect(pooled.durationSec).toBe(20);
    expect(pooled.requestsPerSecond).toBe(495);
    expect(pooled.latency.p50).toBe(10);
    expect(pooled.latency.p99).toBe(10);
    expect(pooled.latency.max).toBe(90);
    expect(slow.latency.p99).toBe(90);
    expect(pooled.statusCounts).toEqual({ '201': 9899, '500': 1 });
    expect(pooled.non2xx).toBe(1);
    expect([pooled.startedAt, pooled.endedAt]).toEqual([1_000, 40_000]);
    expect(pooled.latencies).toBeUndefined();
  });

  it('refuses runs that did not keep their latencies', () => {
    const { latencies: _dropped, ...withoutLatencies } = run([1, 2, 3], 1, { '201': 3 }, 0);
    expect(() => poolRuns([withoutLatencies])).toThrow(/keepLatencies/);
  });
});

describe('linearFit', () => {
  it('recovers a line exactly', () => {
    const fit = linearFit([10, 100, 1000], [25, 205, 2005]);
    expect(fit.slope).toBeCloseTo(2, 10);
    expect(fit.intercept).toBeCloseTo(5, 10);
    expect(fit.r2).toBeCloseTo(1, 10);
  });
});

describe('formatting', () => {
  it('ratios and numbers', () => {
    expect(ratio(1, 4)).toBe(0.25);
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(fmt(1234.5)).toBe('1,235');
    expect(fmt(3.14159, 2)).toBe('3.14');
    expect(fmt(Number.NaN)).toBe('');
  });

  it('aligns a table', () => {
    const table = formatTable(['case', 'req/s'], [['a', '10'], ['bbb', '1,000']]);
    expect(table.split('\n')).toEqual(['case | req/s', '-----|------', 'a    |    10', 'bbb  | 1,000']);
  });
});

describe('generated books', () => {
  it('are valid artifacts with the asked number of rules, and price', () => {
    for (const rules of [10, 1000]) {
      const artifact = bookArtifactSchema.parse(generateBook(rules));
      expect(artifact.rules).toHaveLength(rules);
      const book = compileBook(artifact);
      for (const inputs of generateInputs(20)) {
        const outcome = evaluate(book, inputs);
        expect(outcome.outcome).toBe('succeeded');
        if (outcome.outcome === 'succeeded') expect(outcome.computation.derivation.length).toBeGreaterThan(rules);
      }
    }
  });

  it('are deterministic', () => {
    expect(generateBook(100)).toEqual(generateBook(100));
  });
});

describe('median', () => {
  it('is the middle value, the mean of the middle two for an even count, and leaves unknown values out', () => {
    expect(median([1.2, 0.9, 1.0])).toBe(1.0);
    expect(median([1.3, 0.9, 1.1, 1.0])).toBeCloseTo(1.05);
    expect(median([null, 1.1, null])).toBe(1.1);
    expect(median([null])).toBeNull();
    expect(median([])).toBeNull();
  });
});

describe('swappedPairsEstimate', () => {
  it('cancels a difference between the two sides: each is "with" in one round of a pair', () => {
    // True effect 1.04; side A costs 10% more than side B whatever it runs.
    const effect = 1.04;
    const rounds = [(effect * 1.1) / 1, effect / 1.1, (effect * 1.1) / 1, effect / 1.1];
    const { pairs, median: estimate } = swappedPairsEstimate(rounds);
    expect(pairs).toHaveLength(2);
    for (const pair of pairs) expect(pair).toBeCloseTo(effect, 10);
    expect(estimate).toBeCloseTo(effect, 10);
  });

  it('takes the median of the pairs, leaves out a pair with a missing round and an odd last round', () => {
    const { pairs, median: estimate } = swappedPairsEstimate([1, 1, 4, 1, null, 1, 1.21, 1, 9]);
    expect(pairs).toEqual([1, 2, 1.1]);
    expect(estimate).toBe(1.1);
    expect(swappedPairsEstimate([]).median).toBeNull();
  });
});
