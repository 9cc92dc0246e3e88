import { describe, expect, it } from 'vitest';
import { armTotalsOf } from './arm-totals';
import type { ArmTotalsRow } from './store';

const row = (arm: string, currency: string, values: Partial<Omit<ArmTotalsRow, 'arm' | 'currency'>>): ArmTotalsRow => ({
  arm,
  currency,
  quotes: '0',
  quotedPriceSum: '0',
  acceptances: '0',
  acceptedRevenueSum: '0',
  acceptedRevenueSumOfSquares: '0',
  commitments: '0',
  committedRevenueSum: '0',
  committedRevenueSumOfSquares: '0',
  wonLeads: '0',
  ...values,
});

describe('armTotalsOf', () => {
  it('sums each arm across currencies into BigInt totals, exactly past 2^53, and names the main currency', () => {
    const big = '10000000000000000000000'; // 10^22: the squares of a few thousand 10^9 totals
    const counted = armTotalsOf(
      [
        row('control', 'EUR', { quotes: '3', quotedPriceSum: '30000', acceptances: '2', acceptedRevenueSum: '20000', acceptedRevenueSumOfSquares: '200000000', wonLeads: '1' }),
        row('control', 'GBP', { quotes: '1', quotedPriceSum: '9000', commitments: '1', committedRevenueSum: '9000', committedRevenueSumOfSquares: '81000000' }),
        row('variant_1', 'EUR', { quotes: '5', quotedPriceSum: big, acceptances: '1', acceptedRevenueSum: '1', acceptedRevenueSumOfSquares: big }),
        row('variant_9', 'EUR', { quotes: '7' }),
      ],
      ['control', 'variant_1', 'variant_2'],
    );
    expect(counted.control).toEqual({
      currency: 'EUR',
      totals: {
        quotes: 4,
        acceptances: 2,
        wonLeads: 1,
        quotedPriceSum: 39000n,
        acceptedRevenue: { sum: 20000n, sumOfSquares: 200000000n },
        commitments: 1,
        committedRevenue: { sum: 9000n, sumOfSquares: 81000000n },
      },
    });
    expect(counted.variant_1.totals.quotedPriceSum).toBe(10n ** 22n);
    expect(counted.variant_1.totals.acceptedRevenue.sumOfSquares).toBe(10n ** 22n);
    expect(counted.variant_2).toEqual({ currency: null, totals: expect.objectContaining({ quotes: 0, quotedPriceSum: 0n }) });
    expect(Object.keys(counted)).toEqual(['control', 'variant_1', 'variant_2']);
  });
});
