// Generated price books and answers for the engine's property tests: a few offerings and
// factors, rules of every phase referring to them (clamped surcharges and discounts, guardrails,
// deposits), answers valid, unknown, missing or naming no option; and versions of a book.
import fc from 'fast-check';
import { PHASES, type BookArtifactInput, type QuoteInputs } from '../pricing';

type Rule = NonNullable<BookArtifactInput['rules']>[number];
type Factor = NonNullable<BookArtifactInput['factors']>[number];
type Offering = BookArtifactInput['offerings'][number];

const ruleSeed = fc.record({
  phase: fc.constantFrom(...PHASES.filter((p) => p !== 'base')),
  amount: fc.integer({ min: 0, max: 1_000_000 }),
  signedAmount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  basisPoints: fc.integer({ min: -10_000, max: 100_000 }),
  reductionPercent: fc.boolean(),
  fraction: fc.integer({ min: 0, max: 10_000 }),
  scope: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  clause: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
  maximum: fc.boolean(),
});
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type RuleSeed = ValueOf<typeof ruleSeed>;

/** A rule of the seed's phase, scoped and conditioned on what the book has. */
function ruleOf(s: RuleSeed, id: string, label: string, offerings: readonly Offering[], factors: readonly Factor[]): Rule {
  const common: Record<string, unknown> = { id, label };
  if (s.scope !== undefined) common.offeringIds = [offerings[s.scope % offerings.length].id];
  const clause =
    s.clause && factors.length > 0
      ? (() => {
          const f = factors[s.clause[0] % factors.length];
          return [{ factorId: f.id, optionIds: [f.options[s.clause[1] % f.options.length].id] }];
        })()
      : undefined;
  if (clause) common.when = clause;
  const adjustment = s.reductionPercent ? { type: 'percent', basisPoints: s.basisPoints } : { type: 'fixed', amountMinor: s.signedAmount };
  switch (s.phase) {
    case 'baseOverride':
      return { ...common, phase: s.phase, priceMinor: s.amount } as Rule;
    case 'scopedModifier':
      return { ...common, phase: s.phase, offeringIds: (common.offeringIds as string[]) ?? [offerings[0].id], adjustment } as Rule;
    case 'conditionalModifier':
      return (clause ? { ...common, phase: s.phase, adjustment } : { ...common, phase: 'discount', reduction: { type: 'fixed', amountMinor: s.amount } }) as Rule;
    case 'discount':
      return {
        ...common,
        phase: s.phase,
        reduction: s.reductionPercent ? { type: 'percent', basisPoints: s.fraction } : { type: 'fixed', amountMinor: s.amount },
      } as Rule;
    case 'guardrail':
      return { ...common, phase: s.phase, limit: s.maximum ? 'maximumTotal' : 'minimumTotal', amountMinor: s.amount } as Rule;
    case 'paymentTerms':
      return { ...common, phase: s.phase, depositBasisPoints: s.fraction } as Rule;
  }
}

/** A valid book (bookArtifactSchema): 1-3 offerings, up to 4 factors, up to 12 rules. */
export const bookArbitrary: fc.Arbitrary<BookArtifactInput> = fc
  .record({
    offeringCount: fc.integer({ min: 1, max: 3 }),
    factorOptionCounts: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
    seedRules: fc.array(ruleSeed, { maxLength: 12 }),
    basePrices: fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 3, maxLength: 3 }),
    required: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    assume: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  })
  .map(({ offeringCount, factorOptionCounts, seedRules, basePrices, required, assume }) => {
    const factors = factorOptionCounts.map((count, i) => ({
      id: `f${i}`,
      label: `Factor ${i}`,
      required: required[i],
      options: Array.from({ length: count }, (_, j) => ({ id: `o${j}`, label: `Option ${j}` })),
      whenUnknown: assume[i] ? { action: 'assume' as const, optionId: 'o0' } : { action: 'requireInput' as const },
    }));
    const offerings = Array.from({ length: offeringCount }, (_, i) => ({
      id: `offer${i}`,
      label: `Offering ${i}`,
      basePriceMinor: basePrices[i],
      factorIds: factors.filter((_, j) => (i + j) % 2 === 0 || j === 0).map((f) => f.id),
    }));
    const rules = seedRules.map((s, i) => ruleOf(s, `r${i}`, `Rule ${i}`, offerings, factors));
    return { formatVersion: 1, currency: 'EUR', offerings, factors, rules } as BookArtifactInput;
  });

/** Answers to draw for a book: per factor an option number, unknown (null), none, or "bogus". */
export const answersArbitrary = fc.record({
  answers: fc.array(fc.oneof(fc.nat(), fc.constant(null), fc.constant(undefined), fc.constant('bogus')), { minLength: 4, maxLength: 4 }),
  offeringPick: fc.nat(),
});
export type AnswersSeed = ValueOf<typeof answersArbitrary>;

/** The drawn answers as a quote's inputs for `artifact`. */
export function inputsFor(artifact: BookArtifactInput, { answers, offeringPick }: AnswersSeed): QuoteInputs {
  const factors: QuoteInputs['factors'] = {};
  (artifact.factors ?? []).forEach((f, i) => {
    const a = answers[i];
    if (a === undefined) return;
    factors[f.id] = a === null ? null : typeof a === 'string' ? a : f.options[a % f.options.length].id;
  });
  return { offeringId: artifact.offerings[offeringPick % artifact.offerings.length].id, factors };
}

/** A book and answers to it. */
export const bookAndInputs = fc
  .tuple(bookArbitrary, answersArbitrary)
  .map(([artifact, answers]) => ({ artifact, inputs: inputsFor(artifact, answers) }));

/**
 * Edits that make another version of a book: base prices scaled, a rule dropped, a rule's
 * amount changed, rules added, the rules reordered, and now and then another currency.
 */
export const versionEditArbitrary = fc.record({
  scaleBase: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 3, maxLength: 3 }),
  drop: fc.option(fc.nat(), { nil: undefined }),
  change: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 1_000_000 })), { nil: undefined }),
  added: fc.array(ruleSeed, { maxLength: 3 }),
  reverse: fc.boolean(),
  otherCurrency: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
export type VersionEdit = ValueOf<typeof versionEditArbitrary>;

/** `artifact` with `edit` applied: still a valid book, with the same offerings and factors. */
export function versionOf(artifact: BookArtifactInput, edit: VersionEdit): BookArtifactInput {
  const next = structuredClone(artifact);
  next.offerings = next.offerings.map((o, i) => ({ ...o, basePriceMinor: Math.round((o.basePriceMinor * edit.scaleBase[i % 3]) / 100) }));
  let rules = [...(next.rules ?? [])];
  if (edit.drop !== undefined && rules.length > 0) rules.splice(edit.drop % rules.length, 1);
  if (edit.change && rules.length > 0) {
    const [at, amount] = edit.change;
    const rule = { ...rules[at % rules.length] } as Record<string, unknown>;
    if ('priceMinor' in rule) rule.priceMinor = amount;
    else if (rule.phase === 'guardrail') rule.amountMinor = amount;
    else if ('adjustment' in rule) rule.adjustment = { type: 'fixed', amountMinor: amount - 500_000 };
    else if ('reduction' in rule) rule.reduction = { type: 'fixed', amountMinor: amount };
    else if ('depositBasisPoints' in rule) rule.depositBasisPoints = amount % 10_001;
    rules[at % rules.length] = rule as Rule;
  }
  rules.push(...edit.added.map((s, i) => ruleOf(s, `new${i}`, `New rule ${i}`, next.offerings, next.factors ?? [])));
  if (edit.reverse) rules = rules.reverse();
  next.rules = rules;
  if (edit.otherCurrency) next.currency = 'GBP';
  return next;
}
