import { formatMoney, signedMoney } from '@/lib/pricing/format-money';
import type { Impact } from './use-impact-run';

type Difference = Impact['movers'][number]['differences'][number];

/**
 * How one rule's step changed, in words: "+$30.00 → +$48.00", "+$20.00" for a new rule, "was
 * +$5.00" for a removed one. The base price is an amount, not a change: "$120.00 → $132.00".
 */
export function stepChangeWords(d: Difference, currency: string): string {
  const money = d.phase === 'base' ? (minor: number) => formatMoney(minor, currency) : (minor: number) => signedMoney(minor, currency);
  const step = (s: NonNullable<Difference['before']>) => (s.status === 'applied' ? money(s.deltaMinor) : 'does not apply');
  if (d.before === null) return step(d.after!);
  if (d.after === null) return `was ${step(d.before)}`;
  return `${step(d.before)} → ${step(d.after)}`;
}
