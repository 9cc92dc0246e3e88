// Valid price books of every shape the format allows, for property tests: currencies with 0, 2
// and 3 decimals, optional fields present or absent, rules of every phase with scopes and
// conditions that refer to what exists.
import fc from 'fast-check';
import type { BookArtifactInput } from '@/lib/pricing/book-artifact';
import { MAX_MINOR, MAX_SURCHARGE_BASIS_POINTS } from '@/lib/pricing/limits';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);
const amount = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: MAX_MINOR }));

export const artifactArbitrary: fc.Arbitrary<BookArtifactInput> = fc
  .record({
    currency: fc.constantFrom('USD', 'EUR', 'JPY', 'KWD', 'CLF', 'GBP'),
    autonomy: fc.constantFrom('autonomous', 'approval_first', 'observe'),
    quoteValidityDays: maybe(fc.integer({ min: 0, max: 3650 })),
    conditions: fc.array(text, { maxLength: 2 }),
    factorShapes: fc.array(
      fc.record({
        label: text,
        required: fc.boolean(),
        options: fc.array(fc.record({ label: text, inspection: maybe(fc.boolean()) }), { minLength: 1, maxLength: 4 }),
        assume: maybe(fc.nat()),
      }),
      { maxLength: 4 },
    ),
    offeringShapes: fc.array(
      fc.record({ label: text, description: maybe(fc.string({ maxLength: 8 })), price: amount, asks: fc.array(fc.nat(), { maxLength: 4 }), conditions: fc.array(text, { maxLength: 2 }) }),
      { minLength: 1, maxLength: 4 },
    ),
    ruleShapes: fc.array(
      fc.record({
        phase: fc.constantFrom('baseOverride', 'scopedModifier', 'conditionalModifier', 'discount', 'guardrail', 'paymentTerms'),
        label: text,
        description: maybe(fc.string({ maxLength: 8 })),
        scope: maybe(fc.array(fc.nat(), { minLength: 1, maxLength: 3 })),
        when: maybe(fc.array(fc.tuple(fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 2 })),
        amount,
        signed: fc.integer({ min: -MAX_MINOR, max: MAX_MINOR }),
        percent: fc.boolean(),
        basisPoints: fc.integer({ min: -10_000, max: MAX_SURCHARGE_BASIS_POINTS }),
        fraction: fc.integer({ min: 0, max: 10_000 }),
        maximum: fc.boolean(),
      }),
      { maxLength: 10 },
    ),
  })
  .map(({ currency, autonomy, quoteValidityDays, conditions, factorShapes, offeringShapes, ruleShapes }) => {
    const factors = factorShapes.map((f, i) => ({
      id: `factor_${i}`,
      label: f.label,
      required: f.required,
      options: f.options.map((o, j) => ({
        id: `option_${j}`,
        label: o.label,
        ...(o.inspection !== undefined ? { requiresInspection: o.inspection } : {}),
      })),
      whenUnknown:
        f.assume !== undefined ? { action: 'assume' as const, optionId: `option_${f.assume % f.options.length}` } : { action: 'requireInput' as const },
    }));
    const offerings = offeringShapes.map((o, i) => ({
      id: `offering_${i}`,
      label: o.label,
      ...(o.description !== undefined ? { description: o.description } : {}),
      basePriceMinor: o.price,
      factorIds: factors.length === 0 ? [] : [...new Set(o.asks.map((n) => factors[n % factors.length].id))],
      conditions: o.conditions,
    }));
    type Rule = NonNullable<BookArtifactInput['rules']>[number];
    const rules = ruleShapes.flatMap((r, i): Rule[] => {
      const offeringIds = r.scope && [...new Set(r.scope.map((n) => offerings[n % offerings.length].id))];
      const when =
        r.when && factors.length > 0
          ? r.when.map(([f, options]) => {
              const factor = factors[f % factors.length];
              return { factorId: factor.id, optionIds: [...new Set(options.map((n) => factor.options[n % factor.options.length].id))] };
            })
          : undefined;
      const common = {
        id: `rule_${i}`,
        label: r.label,
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(offeringIds ? { offeringIds } : {}),
        ...(when ? { when } : {}),
      };
      const adjustment: Extract<Rule, { phase: 'scopedModifier' }>['adjustment'] = r.percent
        ? { type: 'percent', basisPoints: r.basisPoints }
        : { type: 'fixed', amountMinor: r.signed };
      switch (r.phase) {
        case 'baseOverride':
          return [{ ...common, phase: r.phase, priceMinor: r.amount }];
        case 'scopedModifier':
          return [{ ...common, phase: r.phase, offeringIds: offeringIds ?? [offerings[0].id], adjustment }];
        case 'conditionalModifier':
          return when ? [{ ...common, phase: r.phase, when, adjustment }] : [];
        case 'discount':
          return [{ ...common, phase: r.phase, reduction: r.percent ? { type: 'percent' as const, basisPoints: r.fraction } : { type: 'fixed' as const, amountMinor: r.amount } }];
        case 'guardrail':
          return [{ ...common, phase: r.phase, limit: r.maximum ? ('maximumTotal' as const) : ('minimumTotal' as const), amountMinor: r.amount }];
        case 'paymentTerms':
          return [{ ...common, phase: r.phase, depositBasisPoints: r.fraction }];
      }
    });
    return { formatVersion: 1 as const, currency, autonomy, ...(quoteValidityDays === undefined ? {} : { quoteValidityDays }), offerings, factors, rules, conditions };
  });
