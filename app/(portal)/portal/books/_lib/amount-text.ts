// Amounts and percentages as a person types them: "120.00" in the book's currency for 12000
// minor units, "12.5" for 1250 basis points. Exact both ways: no floating point is involved.
import { minorUnitsOf } from '@/lib/pricing/currencies';

/** Decimals of the currency's minor unit (ISO 4217); 2 for a code the table does not know. */
export function decimalsOf(currency: string): number {
  return minorUnitsOf(currency) ?? 2;
}

/** 12000 USD → "120.00"; 1200 JPY → "1200"; -550 USD → "-5.50". */
export function minorToText(amountMinor: number, currency: string): string {
  return fixedPoint(amountMinor, decimalsOf(currency), true);
}

/**
 * "120", "120.5", "1,200.00", "$120" → minor units; null when it is not an amount in that
 * currency (more decimals than it has, letters, two points). A leading minus is kept.
 */
export function textToMinor(text: string, currency: string): number | null {
  return parseFixed(text.replace(/[\s,$€£¥]/g, ''), decimalsOf(currency));
}

/** 2500 → "25"; 1250 → "12.5"; 1 → "0.01"; -1000 → "-10". */
export function basisPointsToText(basisPoints: number): string {
  return fixedPoint(basisPoints, 2, false);
}

/** "25", "12.5", "0.01", "25 %" → basis points; null for more than two decimals or not a number. */
export function textToBasisPoints(text: string): number | null {
  return parseFixed(text.replace(/[\s%]/g, ''), 2);
}

/** An integer scaled by 10^decimals as decimal text; `padded` keeps every decimal ("120.00"). */
function fixedPoint(value: number, decimals: number, padded: boolean): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  if (!padded) fraction = fraction.replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

function parseFixed(text: string, decimals: number): number | null {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const value = Number(`${whole || '0'}${fraction.padEnd(decimals, '0')}`);
  if (!Number.isSafeInteger(value)) return null;
  return sign === '-' && value !== 0 ? -value : value;
}
