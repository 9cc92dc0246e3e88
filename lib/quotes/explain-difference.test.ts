import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../books/demo-book';
import { bookArtifactSchema, compileBook, evaluate, type BookArtifactInput, type QuoteInputs } from '../pricing';
import { answersArbitrary, bookArbitrary, inputsFor, versionEditArbitrary, versionOf } from '../testing/book-arbitrary';
import { quoteComparisonSchema, type QuoteComparison } from './comparison-schemas';
import { explainDifference, type QuoteSide } from './explain-difference';

const BUSINESS = '00000000-0000-4000-8000-0000000000b0';
const BOOK = '00000000-0000-4000-8000-0000000000b1';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A quote as the store would hold it: `inputs` priced with `artifact` (version `number`). */
function quote(artifact: BookArtifactInput, inputs: QuoteInputs, number = 1, n = number): QuoteSide {
  const book = compileBook(bookArtifactSchema.parse(artifact));
  const outcome = evaluate(book, inputs);
  return {
    quoteIntentId: uuid(100 + n),
    createdAt: '2026-11-20T10:00:00.000Z',
    environment: 'live',
    source: 'api',
    status: outcome.outcome,
    bookId: BOOK,
    inputs,
    version: { id: uuid(number), number, book },
    receipt: {
      outcome: outcome.outcome,
      computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
      missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
      failure: outcome.outcome === 'failed' ? outcome.failure : null,
    },
  };
}

const steps = (comparison: QuoteComparison) => comparison.phases.flatMap((p) => p.steps);
const demo = () => structuredClone(demoBookArtifact) as BookArtifactInput;

describe('explainDifference: two quotes of one version with different answers', () => {
  const a = quote(demo(), demoExample, 1, 1);
  const b = quote(demo(), { offeringId: 'window_cleaning', factors: { home_size: 'large', storeys: '3', frequency: 'monthly', access: 'easy' } }, 1, 2);
  const comparison = explainDifference(BUSINESS, a, b);

  it('lists the answers that differ, in the order the book asks them, with their labels', () => {
    expect(comparison.answers).toEqual([
      { factorId: 'home_size', label: 'Home size', a: { id: 'medium', label: '3 to 4 bedrooms' }, b: { id: 'large', label: '5 bedrooms or more' } },
      { factorId: 'storeys', label: 'Storeys', a: { id: '2', label: 'Two storeys' }, b: { id: '3', label: 'Three storeys' } },
      {
        factorId: 'access',
        label: 'Access',
        a: { id: 'difficult', label: 'Difficult: conservatory, steep slope or no side access' },
        b: { id: 'easy', label: 'Easy: clear paths, no obstacles' },
      },
    ]);
    expect(comparison.bookVersion).toEqual({ same: true, sameBook: true, changes: null });
  });

  it('explains phase by phase the steps that priced differently, adding up to the difference', () => {
    expect(comparison.phases).toEqual([
      {
        phase: 'scopedModifier',
        steps: [
          {
            ruleId: 'tall_building',
            label: 'Three or more storeys',
            a: { status: 'skipped', deltaMinor: 0 },
            b: { status: 'applied', deltaMinor: 4500 },
            deltaChangeMinor: 4500,
            sentence: '“Three or more storeys” applied to B (+$45.00) but not to A. Difference: +$45.00.',
          },
        ],
      },
      {
        phase: 'conditionalModifier',
        steps: [
          {
            ruleId: 'difficult_access',
            label: 'Difficult access',
            a: { status: 'applied', deltaMinor: 2250 },
            b: { status: 'skipped', deltaMinor: 0 },
            deltaChangeMinor: -2250,
            sentence: '“Difficult access” applied to A (+$22.50) but not to B. Difference: −$22.50.',
          },
        ],
      },
      {
        phase: 'discount',
        steps: [
          {
            ruleId: 'recurring_discount',
            label: 'Recurring visit discount',
            a: { status: 'applied', deltaMinor: -1725 },
            b: { status: 'applied', deltaMinor: -1950 },
            deltaChangeMinor: -225,
            sentence: '“Recurring visit discount” came to −$17.25 for A and −$19.50 for B. Difference: −$2.25.',
          },
        ],
      },
    ]);
    expect(comparison.reconciliation).toEqual({ currency: 'USD', totalAMinor: 15525, totalBMinor: 17550, differenceMinor: 2025, explainedMinor: 2025 });
    expect(comparison.notReconciled).toBeNull();
  });

  it('says it in sentences, and marks the differing steps of both waterfalls', () => {
    expect(comparison.summary).toEqual([
      'B comes to $175.50, $20.25 more than A ($155.25).',
      '3 answers differ: Home size (“3 to 4 bedrooms” → “5 bedrooms or more”), Storeys (“Two storeys” → “Three storeys”) and Access (“Difficult: conservatory, steep slope or no side access” → “Easy: clear paths, no obstacles”).',
      'Both were priced with version 1 of the book.',
      '3 steps priced differently; together they explain the whole difference of +$20.25.',
    ]);
    const marked = (side: QuoteComparison['a']) => side.derivation.filter((d) => d.differs).map((d) => d.label);
    expect(marked(comparison.a)).toEqual(['Three or more storeys', 'Difficult access', 'Recurring visit discount']);
    expect(marked(comparison.b)).toEqual(['Three or more storeys', 'Difficult access', 'Recurring visit discount']);
    expect(comparison.a.derivation[0]).toMatchObject({ label: 'Base price', phase: 'base', deltaMinor: 12000, differs: false });
    expect(quoteComparisonSchema.parse(comparison)).toEqual(comparison);
  });
});

describe('explainDifference: the same answers across two versions', () => {
  const v2 = demo();
  const rules = v2.rules!.filter((r) => r.id !== 'tall_building').map((r) => (r.id === 'large_home' ? { ...r, adjustment: { type: 'percent' as const, basisPoints: 3000 } } : r));
  rules.splice(rules.findIndex((r) => r.id === 'recurring_discount') + 1, 0, {
    id: 'welcome',
    phase: 'discount',
    label: 'Welcome discount',
    reduction: { type: 'fixed', amountMinor: 500 },
  });
  v2.rules = rules;
  const comparison = explainDifference(BUSINESS, quote(demo(), demoExample, 1), quote(v2, demoExample, 2));

  it('names the versions and what changed between them, from the version diff', () => {
    expect(comparison.answers).toEqual([]);
    expect(comparison.bookVersion.same).toBe(false);
    expect(comparison.bookVersion.changes!.entities.map(({ id, change }) => `${change} ${id}`)).toEqual([
      'changed large_home',
      'added welcome',
      'removed tall_building',
    ]);
    expect(comparison.summary).toEqual([
      'B comes to $156.46, $1.21 more than A ($155.25).',
      'A and B have the same offering and the same answers.',
      'A was priced with version 1 of the book and B with version 2: rule “Larger home” changed, rule “Welcome discount” added and rule “Three or more storeys” removed.',
      '5 steps priced differently; together they explain the whole difference of +$1.21.',
    ]);
  });

  it('explains rules that are new, gone or changed, and still adds up exactly', () => {
    expect(steps(comparison).map((s) => [s.ruleId, s.deltaChangeMinor, s.sentence])).toEqual([
      ['large_home', 600, '“Larger home” came to +$30.00 for A and +$36.00 for B. Difference: +$6.00.'],
      ['tall_building', 0, '“Three or more storeys” is not in B’s book version; it did not apply to A. It does not change the total.'],
      ['difficult_access', 90, '“Difficult access” came to +$22.50 for A and +$23.40 for B. Difference: +$0.90.'],
      ['recurring_discount', -69, '“Recurring visit discount” came to −$17.25 for A and −$17.94 for B. Difference: −$0.69.'],
      ['welcome', -500, '“Welcome discount” is new in B’s book version; it applied to B (−$5.00). Difference: −$5.00.'],
    ]);
    expect(comparison.reconciliation).toMatchObject({ differenceMinor: 121, explainedMinor: 121 });
  });
});

describe('explainDifference: when there is nothing to reconcile', () => {
  it('says plainly that a quote was not priced, and explains no steps', () => {
    const unpriced = quote(demo(), { ...demoExample, factors: { ...demoExample.factors, storeys: null } }, 1, 2);
    const comparison = explainDifference(BUSINESS, unpriced, quote(demo(), demoExample, 1, 1));
    expect(comparison.notReconciled).toBe('a_not_priced');
    expect(comparison.reconciliation).toBeNull();
    expect(comparison.phases).toEqual([]);
    expect(comparison.a).toMatchObject({ outcome: 'requires_input', totalMinor: null, missingInputs: ['factors.storeys'], derivation: [] });
    expect(comparison.summary.slice(0, 2)).toEqual([
      'A was not priced: it still needs an answer to Storeys.',
      'There is no price difference to explain: only B was priced.',
    ]);
    expect(comparison.answers).toEqual([{ factorId: 'storeys', label: 'Storeys', a: { id: null, label: 'not sure' }, b: { id: '2', label: 'Two storeys' } }]);
  });

  it('explains no steps across currencies, and names the offerings when they differ', () => {
    const euros = { ...demo(), currency: 'EUR' };
    const gutters = { ...demoExample, offeringId: 'gutter_cleaning' };
    const comparison = explainDifference(BUSINESS, quote(demo(), demoExample, 1), quote(euros, gutters, 2));
    expect(comparison.notReconciled).toBe('currencies_differ');
    expect(comparison.reconciliation).toBeNull();
    expect(comparison.phases).toEqual([]);
    expect(comparison.summary[0]).toBe('A is priced in USD and B in EUR: the two prices cannot be set against each other, so no step is explained.');
    expect(comparison.answers[0]).toEqual({
      factorId: null,
      label: 'Offering',
      a: { id: 'window_cleaning', label: 'Window cleaning' },
      b: { id: 'gutter_cleaning', label: 'Gutter cleaning' },
    });
    expect(comparison.bookVersion.changes!.settings).toEqual([{ field: 'currency', before: 'USD', after: 'EUR' }]);
  });

  it('words a base price that differs with the offering change', () => {
    const gutters = { ...demoExample, offeringId: 'gutter_cleaning' };
    const comparison = explainDifference(BUSINESS, quote(demo(), demoExample, 1, 1), quote(demo(), gutters, 1, 2));
    expect(steps(comparison)[0]).toMatchObject({
      ruleId: null,
      label: 'Base price',
      deltaChangeMinor: -3000,
      sentence: 'The base price is $120.00 for Window cleaning (A) and $90.00 for Gutter cleaning (B). Difference: −$30.00.',
    });
    expect(comparison.summary[1]).toBe('A is for Window cleaning and B for Gutter cleaning.');
  });
});

describe('explainDifference over generated books and answers', () => {
  it('reconciles exactly whenever both are priced in one currency, and otherwise explains no steps', () => {
    fc.assert(
      fc.property(
        bookArbitrary,
        fc.option(versionEditArbitrary, { nil: undefined }),
        answersArbitrary,
        fc.option(answersArbitrary, { nil: undefined }),
        (artifact, edit, answersA, answersB) => {
          const other = edit ? versionOf(artifact, edit) : artifact;
          const inputsA = inputsFor(artifact, answersA);
          // The same answers, or others.
          const inputsB = answersB ? inputsFor(other, answersB) : inputsA;
          const a = quote(artifact, inputsA, 1);
          const b = quote(other, inputsB, edit ? 2 : 1);
          const comparison = explainDifference(BUSINESS, a, b);
          expect(quoteComparisonSchema.safeParse(comparison).success).toBe(true);
          expect(comparison.summary.length).toBeGreaterThan(0);

          const ca = a.receipt.computation;
          const cb = b.receipt.computation;
          for (const c of [ca, cb]) if (c) expect(c.derivation.reduce((sum, d) => sum + d.deltaMinor, 0)).toBe(c.totalMinor);
          if (!ca || !cb || ca.currency !== cb.currency) {
            expect(comparison.reconciliation).toBeNull();
            expect(comparison.notReconciled).not.toBeNull();
            expect(comparison.phases).toEqual([]);
            return;
          }
          const explained = steps(comparison).reduce((sum, s) => sum + s.deltaChangeMinor, 0);
          expect(explained).toBe(cb.totalMinor - ca.totalMinor);
          expect(comparison.reconciliation).toEqual({
            currency: ca.currency,
            totalAMinor: ca.totalMinor,
            totalBMinor: cb.totalMinor,
            differenceMinor: cb.totalMinor - ca.totalMinor,
            explainedMinor: explained,
          });
          for (const s of steps(comparison)) expect(s.deltaChangeMinor).toBe((s.b?.deltaMinor ?? 0) - (s.a?.deltaMinor ?? 0));
          // Every explained step is marked in the waterfall of each quote that has it, and only those.
          const markedSteps = [...comparison.a.derivation, ...comparison.b.derivation].filter((d) => d.differs);
          expect(markedSteps.length).toBe(steps(comparison).reduce((n, s) => n + (s.a ? 1 : 0) + (s.b ? 1 : 0), 0));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
