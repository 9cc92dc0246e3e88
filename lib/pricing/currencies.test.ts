import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../books/demo-book';
import { ISO_4217_MINOR_UNITS, minorUnitsOf } from './currencies';
import { bookArtifactSchema, compileBook, evaluate, storedBookArtifactSchema } from './index';

const withCurrency = (currency: string) => ({ ...demoBookArtifact, currency });

describe('book currency (ISO 4217)', () => {
  it.each(['ABC', 'XXY', 'usd', 'US', 'USDX', 'XXX', 'XTS', 'XAU', 'HRK'])('refuses %s, naming the field', (currency) => {
    const result = bookArtifactSchema.safeParse(withCurrency(currency));
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => ({ path: i.path, message: i.message }))).toEqual([
      { path: ['currency'], message: 'must be an ISO 4217 currency code such as USD or EUR' },
    ]);
  });

  it.each(['USD', 'EUR', 'JPY', 'GBP', 'CHF', 'KWD', 'VED', 'XCG'])('accepts %s', (currency) => {
    expect(bookArtifactSchema.parse(withCurrency(currency)).currency).toBe(currency);
  });

  it('reads back a stored version whose currency was accepted before the ISO check', () => {
    expect(storedBookArtifactSchema.parse(withCurrency('ABC')).currency).toBe('ABC');
    expect(storedBookArtifactSchema.safeParse(withCurrency('usd')).success).toBe(false);
  });

  it('knows each currency’s minor unit, and leaves out codes that have none', () => {
    expect([minorUnitsOf('JPY'), minorUnitsOf('USD'), minorUnitsOf('KWD'), minorUnitsOf('CLF')]).toEqual([0, 2, 3, 4]);
    expect(minorUnitsOf('XAU')).toBeUndefined();
    expect(minorUnitsOf('toString')).toBeUndefined();
    expect(Object.keys(ISO_4217_MINOR_UNITS).every((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
  });

  it('prices in minor units whatever their size: a yen book rounds to whole yen', () => {
    const book = compileBook(bookArtifactSchema.parse(withCurrency('JPY')));
    const outcome = evaluate(book, {
      offeringId: 'window_cleaning',
      factors: { home_size: 'medium', storeys: '3', frequency: 'monthly', access: 'difficult' },
    });
    if (outcome.outcome !== 'succeeded') throw new Error(JSON.stringify(outcome));
    // the same integers as in USD (evaluate.test.ts), now in yen: −10% of 22425 = 2242.5 → 2243 yen
    expect(outcome.computation).toMatchObject({ currency: 'JPY', totalMinor: 20182 });
    expect(outcome.computation.lineItems.at(-1)).toMatchObject({ ruleId: 'recurring_discount', amountMinor: -2243 });
    expect(outcome.computation.paymentTerms).toMatchObject({ depositMinor: 5046, balanceDueMinor: 15136 });
  });
});
