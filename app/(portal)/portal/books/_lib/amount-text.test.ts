import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MINOR } from '@/lib/pricing/limits';
import { basisPointsToText, minorToText, textToBasisPoints, textToMinor } from './amount-text';

describe('amounts as a person types them', () => {
  it('shows minor units in the currency’s decimals', () => {
    expect(minorToText(12000, 'USD')).toBe('120.00');
    expect(minorToText(5, 'USD')).toBe('0.05');
    expect(minorToText(-550, 'USD')).toBe('-5.50');
    expect(minorToText(1200, 'JPY')).toBe('1200');
    expect(minorToText(1234, 'KWD')).toBe('1.234');
  });

  it('reads what people type, and refuses what is not an amount in that currency', () => {
    expect(textToMinor('120', 'USD')).toBe(12000);
    expect(textToMinor('120.5', 'USD')).toBe(12050);
    expect(textToMinor(' $1,200.00 ', 'USD')).toBe(120000);
    expect(textToMinor('.5', 'USD')).toBe(50);
    expect(textToMinor('-3', 'USD')).toBe(-300);
    expect(textToMinor('1200', 'JPY')).toBe(1200);
    for (const bad of ['', '.', 'abc', '1.2.3', '12.345', '1e3', '--1']) expect(textToMinor(bad, 'USD'), bad).toBeNull();
    expect(textToMinor('12.5', 'JPY')).toBeNull();
  });

  it('reads back exactly what it shows, for every amount and currency', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR, max: MAX_MINOR }), fc.constantFrom('USD', 'JPY', 'KWD', 'CLF', 'XYZ'), (amount, currency) => {
        expect(textToMinor(minorToText(amount, currency), currency)).toBe(amount);
      }),
    );
  });

  it('shows basis points as a percentage and reads it back exactly', () => {
    expect(basisPointsToText(2500)).toBe('25');
    expect(basisPointsToText(1250)).toBe('12.5');
    expect(basisPointsToText(1)).toBe('0.01');
    expect(basisPointsToText(-1000)).toBe('-10');
    expect(textToBasisPoints('12.5 %')).toBe(1250);
    expect(textToBasisPoints('0.001')).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), (bp) => {
        expect(textToBasisPoints(basisPointsToText(bp))).toBe(bp);
      }),
    );
  });
});
