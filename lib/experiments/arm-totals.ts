import type { ArmTotals } from './statistics';
import type { ArmTotalsRow } from './store';

export type CountedArm = { totals: ArmTotals; currency: string | null };

const ZERO = { sum: 0n, sumOfSquares: 0n } as const;

/**
 * The store's rows (per arm and currency, sums as text) as the statistics' ArmTotals, for each
 * arm named (an arm without rows has zeros). Sums stay BigInt: squares pass 2^53 quickly.
 * An arm priced in more than one currency (its version changed currency) reports the one most
 * of its quotes were priced in.
 */
export function armTotalsOf(rows: readonly ArmTotalsRow[], arms: readonly string[]): Record<string, CountedArm> {
  const counted: Record<string, CountedArm> = {};
  const main = new Map<string, number>();
  for (const name of arms) {
    counted[name] = {
      totals: { quotes: 0, acceptances: 0, commitments: 0, wonLeads: 0, acceptedRevenue: { ...ZERO }, committedRevenue: { ...ZERO }, quotedPriceSum: 0n },
      currency: null,
    };
  }
  for (const row of rows) {
    const arm = counted[row.arm];
    if (!arm) continue; // not an arm of the definition: receipts only record its arms
    const t = arm.totals;
    const quotes = Number(row.quotes);
    t.quotes += quotes;
    t.acceptances += Number(row.acceptances);
    t.wonLeads += Number(row.wonLeads);
    t.quotedPriceSum += BigInt(row.quotedPriceSum);
    t.acceptedRevenue = {
      sum: t.acceptedRevenue.sum + BigInt(row.acceptedRevenueSum),
      sumOfSquares: t.acceptedRevenue.sumOfSquares + BigInt(row.acceptedRevenueSumOfSquares),
    };
    t.commitments += Number(row.commitments);
    t.committedRevenue = {
      sum: t.committedRevenue.sum + BigInt(row.committedRevenueSum),
      sumOfSquares: t.committedRevenue.sumOfSquares + BigInt(row.committedRevenueSumOfSquares),
    };
    if (quotes > (main.get(row.arm) ?? 0)) {
      main.set(row.arm, quotes);
      arm.currency = row.currency;
    }
  }
  return counted;
}
