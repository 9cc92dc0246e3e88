import type { Factor, Offering, Rule } from './book-artifact';

export type FactorOption = Factor['options'][number];

/**
 * How reasons are worded. Receipts use RECEIPT_WORDING: its text is part of every stored receipt
 * (ids, amounts in minor units) and must never change (evaluate.golden.test.ts). Views for people
 * compile a book with their own wording (labels, formatted money): the same steps, other words.
 */
export type Wording = {
  factor: (factor: Factor) => string;
  option: (factor: Factor, option: FactorOption) => string;
  /** The options a clause accepts, after "not one of". */
  optionList: (factor: Factor, options: readonly FactorOption[]) => string;
  offering: (offering: Offering) => string;
  offeringList: (offerings: readonly Offering[]) => string;
  rule: (rule: Rule) => string;
  money: (amountMinor: number) => string;
  percent: (basisPoints: number) => string;
};

export const RECEIPT_WORDING: Wording = {
  factor: (f) => f.id,
  option: (_, o) => `"${o.id}"`,
  optionList: (_, options) => options.map((o) => o.id).join(', '),
  offering: (o) => `"${o.label}"`,
  offeringList: (offerings) => offerings.map((o) => o.id).join(', '),
  rule: (r) => `rule "${r.id}"`,
  money: (amountMinor) => `${amountMinor}`,
  percent: (basisPoints) => percent(basisPoints),
};

function percent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = Math.abs(basisPoints % 100);
  return `${basisPoints < 0 && whole === 0 ? '-' : ''}${whole}${fraction ? `.${String(fraction).padStart(2, '0')}` : ''}%`;
}
