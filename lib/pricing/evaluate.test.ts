import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../books/demo-book';
import { bookArtifactSchema, compileBook, evaluate, type Outcome } from './index';

const demo = compileBook(bookArtifactSchema.parse(demoBookArtifact));

function succeeded(outcome: Outcome) {
  if (outcome.outcome !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('evaluate on the demo book', () => {
  it('prices every phase in order and explains each rule', () => {
    const { computation } = succeeded(
      evaluate(demo, {
        offeringId: 'window_cleaning',
        factors: { home_size: 'medium', storeys: '3', frequency: 'monthly', access: 'difficult' },
      }),
    );
    // 12000 base; +25% = 3000 -> 15000; +4500 -> 19500; +15% = 2925 -> 22425; -10% = 2243 (2242.5 rounds up) -> 20182
    expect(computation.lineItems).toEqual([
      { kind: 'base', label: 'Window cleaning', amountMinor: 12000, ruleId: null },
      { kind: 'surcharge', label: 'Larger home', amountMinor: 3000, ruleId: 'large_home' },
      { kind: 'surcharge', label: 'Three or more storeys', amountMinor: 4500, ruleId: 'tall_building' },
      { kind: 'surcharge', label: 'Difficult access', amountMinor: 2925, ruleId: 'difficult_access' },
      { kind: 'discount', label: 'Recurring visit discount', amountMinor: -2243, ruleId: 'recurring_discount' },
    ]);
    expect(computation.totalMinor).toBe(20182);
    // 25% of 20182 = 5045.5 -> 5046
    expect(computation.paymentTerms).toEqual({ depositBasisPoints: 2500, depositMinor: 5046, balanceDueMinor: 15136 });
    expect(computation.derivation.map((d) => [d.phase, d.ruleId, d.status])).toEqual([
      ['base', null, 'applied'],
      ['baseOverride', 'commercial_base', 'skipped'],
      ['scopedModifier', 'large_home', 'applied'],
      ['scopedModifier', 'tall_building', 'applied'],
      ['scopedModifier', 'many_panels', 'skipped'],
      ['conditionalModifier', 'difficult_access', 'applied'],
      ['discount', 'recurring_discount', 'applied'],
      ['guardrail', 'minimum_charge', 'skipped'],
      ['paymentTerms', 'deposit', 'applied'],
    ]);
    expect(computation.derivation[1].reason).toBe('site_type is not answered');
    expect(computation.derivation[4].reason).toBe('applies only to offerings solar_panel_cleaning');
    expect(computation.conditions).toHaveLength(2);
  });

  it('gives the worked example of docs/price-book.md', () => {
    const { computation } = succeeded(
      evaluate(demo, {
        offeringId: 'window_cleaning',
        factors: { home_size: 'small', storeys: '3', frequency: 'monthly', access: 'difficult' },
      }),
    );
    expect(computation.totalMinor).toBe(17077);
    expect(computation.paymentTerms).toEqual({ depositBasisPoints: 2500, depositMinor: 4269, balanceDueMinor: 12808 });
  });

  it('overrides the base for commercial sites and raises small totals to the minimum', () => {
    const commercial = succeeded(
      evaluate(demo, {
        offeringId: 'gutter_cleaning',
        factors: { home_size: 'small', storeys: '1', access: 'easy', site_type: 'commercial' },
      }),
    );
    expect(commercial.computation.lineItems[0]).toEqual({
      kind: 'base',
      label: 'Gutter cleaning (Commercial site rate)',
      amountMinor: 25000,
      ruleId: 'commercial_base',
    });
    expect(commercial.computation.totalMinor).toBe(25000);

    const small = succeeded(
      evaluate(demo, { offeringId: 'gutter_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } }),
    );
    expect(small.computation.lineItems.at(-1)).toEqual({
      kind: 'guardrail',
      label: 'Minimum call-out charge',
      amountMinor: 1000,
      ruleId: 'minimum_charge',
    });
    expect(small.computation.totalMinor).toBe(10000);
  });

  it('applies the unknown-answer policy: assume where the book says so, ask otherwise', () => {
    const assumed = succeeded(
      evaluate(demo, {
        offeringId: 'window_cleaning',
        factors: { home_size: 'small', storeys: '1', frequency: null, access: null },
      }),
    );
    expect(assumed.computation.totalMinor).toBe(12000);
    expect(
      evaluate(demo, { offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: null, access: 'easy' } }),
    ).toEqual({ outcome: 'requires_input', missingInputs: ['factors.storeys'] });
  });

  it('lists every missing required factor as a dotted path, and an empty offering as offeringId', () => {
    expect(evaluate(demo, { offeringId: 'solar_panel_cleaning', factors: {} })).toEqual({
      outcome: 'requires_input',
      missingInputs: ['factors.panel_count', 'factors.storeys'],
    });
    expect(evaluate(demo, { offeringId: '', factors: {} })).toEqual({ outcome: 'requires_input', missingInputs: ['offeringId'] });
  });

  it('fails with the spec codes for unknown offerings, factors and options', () => {
    expect(evaluate(demo, { offeringId: 'pool_cleaning', factors: {} })).toMatchObject({
      outcome: 'failed',
      failure: { code: 'unknown_offering' },
    });
    expect(evaluate(demo, { offeringId: 'window_cleaning', factors: { colour: 'red' } })).toMatchObject({
      outcome: 'failed',
      failure: { code: 'unknown_factor' },
    });
    expect(evaluate(demo, { offeringId: 'window_cleaning', factors: { storeys: '7' } })).toMatchObject({
      outcome: 'failed',
      failure: { code: 'unknown_factor_option' },
    });
  });

  it('reports inspection needs for options that require a site visit', () => {
    const outcome = succeeded(
      evaluate(demo, { offeringId: 'window_cleaning', factors: { home_size: 'large', storeys: '4_plus', access: 'easy' } }),
    );
    expect(outcome.inspections).toEqual([{ factorId: 'storeys', optionId: '4_plus', label: 'Four storeys or more' }]);
  });
});

describe('book validation', () => {
  it('refuses references to offerings, factors and options that do not exist', () => {
    const result = bookArtifactSchema.safeParse({
      ...demoBookArtifact,
      rules: [
        { id: 'r1', phase: 'discount', label: 'x', offeringIds: ['nope'], reduction: { type: 'fixed', amountMinor: 1 } },
        {
          id: 'r2',
          phase: 'conditionalModifier',
          label: 'y',
          when: [{ factorId: 'storeys', optionIds: ['9'] }],
          adjustment: { type: 'fixed', amountMinor: 1 },
        },
        { id: 'r2', phase: 'paymentTerms', label: 'z', depositBasisPoints: 10001 },
      ],
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['rules.0.offeringIds.0', 'rules.1.when.0.optionIds.0', 'rules.2.depositBasisPoints']));
  });
});
