import { minorUnitsOf } from './currencies';

// Amounts as people read them, in the book's currency: the portal, the hosted page and the
// explanations the API words (a comparison of two quotes) all format money here.

const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

/** Amounts are ISO 4217 minor units: ICU's own digits differ for some currencies (IDR 0, IQD 0: ISO says 2 and 3). */
export function formatMoney(amountMinor: number, currency: string): string {
  let money = moneyFormats.get(currency);
  if (!money) {
    // Making a NumberFormat is slow; the editor formats thousands of amounts as a book is edited.
    const digits =
      minorUnitsOf(currency) ?? new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    money = { format: new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }), digits };
    moneyFormats.set(currency, money);
  }
  return money.format.format(amountMinor / 10 ** money.digits);
}

/** A change of a total: "+$12.50", "−$3.00" (a true minus sign), "$0.00". */
export function signedMoney(amountMinor: number, currency: string): string {
  return `${amountMinor > 0 ? '+' : amountMinor < 0 ? '−' : ''}${formatMoney(Math.abs(amountMinor), currency)}`;
}
