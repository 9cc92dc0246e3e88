import { describe, expect, it } from 'vitest';
import { mainCurrency, pricePercentiles, type PricePoint } from './percentiles';

const usd = (totalMinor: number, quotes = 1): PricePoint => ({ currency: 'USD', totalMinor, quotes });

/** The same percentiles from the totals written out one by one. */
function naive(totals: number[], p: number) {
  const sorted = [...totals].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
}

describe('pricePercentiles', () => {
  it('is null when nothing was priced', () => {
    expect(pricePercentiles([], null)).toBeNull();
    expect(pricePercentiles([usd(100, 0)], 'USD')).toBeNull();
  });

  it('takes nearest ranks over the counted totals', () => {
    expect(pricePercentiles([usd(300), usd(100), usd(200), usd(400)], 'USD')).toEqual({ currency: 'USD', quotes: 4, p25Minor: 100, medianMinor: 200, p75Minor: 300 });
    expect(pricePercentiles([usd(500, 3)], 'USD')).toEqual({ currency: 'USD', quotes: 3, p25Minor: 500, medianMinor: 500, p75Minor: 500 });
  });

  it('agrees with the totals written out, whatever their counts', () => {
    for (let seed = 1; seed < 200; seed++) {
      const points = Array.from({ length: (seed % 7) + 1 }, (_, i) => usd(((seed * 37 + i * 101) % 997) * 10 + i, ((seed + i) % 5) + 1));
      const totals = points.flatMap((p) => Array<number>(p.quotes).fill(p.totalMinor));
      const got = pricePercentiles(points, 'USD')!;
      expect([got.p25Minor, got.medianMinor, got.p75Minor]).toEqual([naive(totals, 0.25), naive(totals, 0.5), naive(totals, 0.75)]);
    }
  });

  it('keeps to one currency: the most common one', () => {
    const points = [usd(100, 2), { currency: 'EUR', totalMinor: 9_999, quotes: 1 }];
    expect(mainCurrency(points)).toBe('USD');
    expect(pricePercentiles(points, 'USD')?.quotes).toBe(2);
  });
});
