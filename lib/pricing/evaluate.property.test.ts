import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookAndInputs } from '../testing/book-arbitrary';
import { MAX_MINOR, PHASES, bookArtifactSchema, compileBook, evaluate } from './index';
import { basisPointsOf } from './money';

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
