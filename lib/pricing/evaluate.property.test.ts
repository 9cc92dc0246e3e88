import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MINOR, PHASES, bookArtifactSchema, compileBook, evaluate, type BookArtifactInput, type QuoteInputs } from './index';
import { basisPointsOf } from './money';

/** Generated books: a few offerings and factors, and rules of every phase referring to them. */
const bookAndInputs = fc
  .record({
    offeringCount: fc.integer({ min: 1, max: 3 }),
    factorOptionCounts: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
    seedRules: fc.array(
      fc.record({
        phase: fc.constantFrom(...PHASES.filter((p) => p !== 'base')),
        amount: fc.integer({ min: 0, max: 1_000_000 }),
        signedAmount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
        basisPoints: fc.integer({ min: -10_000, max: 100_000 }),
        reductionPercent: fc.boolean(),
        fraction: fc.integer({ min: 0, max: 10_000 }),
        scope: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
        clause: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
        maximum: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    basePrices: fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 3, maxLength: 3 }),
    required: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    assume: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    answers: fc.array(fc.oneof(fc.nat(), fc.constant(null), fc.constant(undefined), fc.constant('bogus')), {
      minLength: 4,
      maxLength: 4,
    }),
    offeringPick: fc.nat(),
  })
  .map(({ offeringCount, factorOptionCounts, seedRules, basePrices, required, assume, answers, offeringPick }) => {
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
    const rules = seedRules.map((s, i) => {
      const common: Record<string, unknown> = { id: `r${i}`, label: `Rule ${i}` };
      if (s.scope !== undefined) common.offeringIds = [offerings[s.scope % offerings.length].id];
      const clause =
        s.clause && factors.length > 0
          ? (() => {
              const f = factors[s.clause[0] % factors.length];
              return [{ factorId: f.id, optionIds: [f.options[s.clause[1] % f.options.length].id] }];
            })()
          : undefined;
      if (clause) common.when = clause;
      const adjustment =
        s.reductionPercent ? { type: 'percent', basisPoints: s.basisPoints } : { type: 'fixed', amountMinor: s.signedAmount };
      switch (s.phase) {
        case 'baseOverride':
          return { ...common, phase: s.phase, priceMinor: s.amount };
        case 'scopedModifier':
          return { ...common, phase: s.phase, offeringIds: (common.offeringIds as string[]) ?? [offerings[0].id], adjustment };
        case 'conditionalModifier':
          return clause ? { ...common, phase: s.phase, adjustment } : { ...common, phase: 'discount', reduction: { type: 'fixed', amountMinor: s.amount } };
        case 'discount':
          return {
            ...common,
            phase: s.phase,
            reduction: s.reductionPercent ? { type: 'percent', basisPoints: s.fraction } : { type: 'fixed', amountMinor: s.amount },
          };
        case 'guardrail':
          return { ...common, phase: s.phase, limit: s.maximum ? 'maximumTotal' : 'minimumTotal', amountMinor: s.amount };
        case 'paymentTerms':
          return { ...common, phase: s.phase, depositBasisPoints: s.fraction };
      }
    });
    const artifact = { formatVersion: 1, currency: 'EUR', offerings, factors, rules } as BookArtifactInput;
    const factorAnswers: QuoteInputs['factors'] = {};
    factors.forEach((f, i) => {
      const a = answers[i];
      if (a === undefined) return;
      factorAnswers[f.id] = a === null ? null : typeof a === 'string' ? a : f.options[a % f.options.length].id;
    });
    const inputs: QuoteInputs = { offeringId: offerings[offeringPick % offerings.length].id, factors: factorAnswers };
    return { artifact, inputs };
  });

describe('pricing engine invariants over generated books', () => {
  it('validates every generated book', () => {
    fc.assert(
      fc.property(bookAndInputs, ({ artifact }) => {
        const parsed = bookArtifactSchema.safeParse(artifact);
        if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
      }),
    );
  });

  it('reconciles totals, keeps them non-negative, splits deposit + balance exactly, explains every rule', () => {
    fc.assert(
      fc.property(bookAndInputs, ({ artifact, inputs }) => {
        const book = bookArtifactSchema.parse(artifact);
        const outcome = evaluate(compileBook(book), inputs);
        if (outcome.outcome !== 'succeeded') return;
        const c = outcome.computation;
        expect(c.lineItems.length).toBeGreaterThanOrEqual(1);
        expect(c.lineItems.reduce((sum, li) => sum + li.amountMinor, 0)).toBe(c.totalMinor);
        expect(c.totalMinor).toBeGreaterThanOrEqual(0);
        expect(c.totalMinor).toBeLessThanOrEqual(MAX_MINOR);
        expect(c.paymentTerms.depositMinor + c.paymentTerms.balanceDueMinor).toBe(c.totalMinor);
        expect(c.paymentTerms.depositMinor).toBeGreaterThanOrEqual(0);
        expect(c.paymentTerms.balanceDueMinor).toBeGreaterThanOrEqual(0);
        for (const li of c.lineItems) expect(Number.isInteger(li.amountMinor)).toBe(true);
        // One entry per rule plus the base entry (and the default-terms entry when no terms rule applied).
        const ruleEntries = c.derivation.filter((d) => d.ruleId !== null).map((d) => d.ruleId);
        expect(ruleEntries.sort()).toEqual(book.rules.map((r) => r.id).sort());
        c.derivation.forEach((d, i) => {
          expect(d.sequence).toBe(i);
          expect(d.runningTotalMinor).toBeGreaterThanOrEqual(0);
          expect(d.reason.length).toBeGreaterThan(0);
          if (d.status === 'skipped') expect(d.deltaMinor).toBe(0);
          if (i > 0) {
            expect(PHASES.indexOf(d.phase)).toBeGreaterThanOrEqual(PHASES.indexOf(c.derivation[i - 1].phase));
            expect(d.runningTotalMinor).toBe(c.derivation[i - 1].runningTotalMinor + d.deltaMinor);
          }
        });
        expect(c.derivation.at(-1)!.runningTotalMinor).toBe(c.totalMinor);
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic: the same book and inputs give the same outcome, whatever the key order', () => {
    fc.assert(
      fc.property(bookAndInputs, ({ artifact, inputs }) => {
        const first = evaluate(compileBook(bookArtifactSchema.parse(artifact)), inputs);
        const reversed = { ...inputs, factors: Object.fromEntries(Object.entries(inputs.factors).reverse()) };
        const second = evaluate(compileBook(bookArtifactSchema.parse(structuredClone(artifact))), reversed);
        expect(second).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it('asks for input exactly when a required factor of the offering has no usable answer', () => {
    fc.assert(
      fc.property(bookAndInputs, ({ artifact, inputs }) => {
        const book = bookArtifactSchema.parse(artifact);
        const outcome = evaluate(compileBook(book), inputs);
        const offering = book.offerings.find((o) => o.id === inputs.offeringId)!;
        const invalid = Object.values(inputs.factors).some((v) => v === 'bogus');
        if (invalid) {
          expect(outcome.outcome).toBe('failed');
          return;
        }
        const missing = offering.factorIds.filter((fid) => {
          const f = book.factors.find((x) => x.id === fid)!;
          const v = inputs.factors[fid];
          return f.required && (v === undefined || (v === null && f.whenUnknown.action === 'requireInput'));
        });
        if (missing.length > 0) {
          expect(outcome).toEqual({ outcome: 'requires_input', missingInputs: missing.map((m) => `factors.${m}`) });
        } else {
          expect(outcome.outcome).toBe('succeeded');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('basisPointsOf', () => {
  it('equals exact rational rounding half away from zero, even where amount * bp exceeds 2^53', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR, max: MAX_MINOR }), fc.integer({ min: -100_000, max: 100_000 }), (amount, bp) => {
        const product = BigInt(amount) * BigInt(bp);
        const abs = product < 0n ? -product : product;
        let q = abs / 10_000n;
        if ((abs % 10_000n) * 2n >= 10_000n) q += 1n;
        const expected = product < 0n ? -q : q;
        expect(basisPointsOf(amount, bp)).toBe(Number(expected));
      }),
      { numRuns: 2000 },
    );
  });
});
