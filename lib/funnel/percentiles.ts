import type { FunnelPrice } from './schemas';

/** Priced quotes at one exact total: how the rollup keeps them (quote_prices_daily). */
export type PricePoint = { currency: string; totalMinor: number; quotes: number };

/** The value at nearest rank ceil(p·n) of the ascending totals (PostgreSQL's percentile_disc). */
function nearestRank(sorted: PricePoint[], n: number, p: number): number {
  const rank = Math.max(1, Math.ceil(p * n));
  let seen = 0;
  for (const point of sorted) {
    seen += point.quotes;
    if (seen >= rank) return point.totalMinor;
  }
  return sorted[sorted.length - 1].totalMinor;
}

/** The most common currency among the points (ties by code), or null when there are none. */
export function mainCurrency(points: PricePoint[]): string | null {
  const byCurrency = new Map<string, number>();
  for (const p of points) byCurrency.set(p.currency, (byCurrency.get(p.currency) ?? 0) + p.quotes);
  const ranked = [...byCurrency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return ranked[0]?.[0] ?? null;
}

/**
 * p25, median and p75 of the priced totals in `currency`, exact (the points are exact totals with
 * their counts); null when nothing was priced in it. Other currencies are left out, not converted.
 */
export function pricePercentiles(points: PricePoint[], currency: string | null): FunnelPrice | null {
  if (!currency) return null;
  const sorted = points.filter((p) => p.currency === currency && p.quotes > 0).sort((a, b) => a.totalMinor - b.totalMinor);
  const n = sorted.reduce((sum, p) => sum + p.quotes, 0);
  if (n === 0) return null;
  return { currency, quotes: n, p25Minor: nearestRank(sorted, n, 0.25), medianMinor: nearestRank(sorted, n, 0.5), p75Minor: nearestRank(sorted, n, 0.75) };
}
