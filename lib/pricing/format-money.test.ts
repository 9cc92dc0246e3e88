import { describe, expect, it } from 'vitest';
import { formatMoney, signedMoney } from './format-money';

// Amounts are ISO 4217 minor units; the display must use the same exponent.
describe('formatMoney', () => {
  it.each([
    [17077, 'USD', /\$170\.77/],
    [1500, 'JPY', /¥1,500$/],
    [1500, 'KWD', /KWD\s1\.500$/],
    // ICU gives IDR and IQD no decimals; ISO 4217 gives them 2 and 3
    [1500000, 'IDR', /IDR\s15,000\.00$/],
    [1234, 'IQD', /IQD\s1\.234$/],
  ])('%d %s', (amountMinor, currency, expected) => {
    expect(formatMoney(amountMinor, currency)).toMatch(expected);
  });
});

describe('signedMoney', () => {
  it('signs a change with + or a true minus, and leaves 0 unsigned', () => {
    expect(signedMoney(1250, 'USD')).toBe('+$12.50');
    expect(signedMoney(-300, 'USD')).toBe('−$3.00');
    expect(signedMoney(0, 'USD')).toBe('$0.00');
  });
});
