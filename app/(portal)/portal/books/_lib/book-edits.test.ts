import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookArtifactSchema, compileBook, evaluate, type BookArtifactInput } from '@/lib/pricing';
import { demoBookArtifact, demoExample } from '@/lib/books/demo-book';
import { artifactArbitrary } from './artifact-arbitrary';
import {
  addRule,
  changeCurrency,
  danglingReferences,
  duplicateRule,
  idFromLabel,
  moveRuleWithinPhase,
  removeFactor,
  removeOffering,
  removeOption,
} from './book-edits';

const demo = bookArtifactSchema.parse(demoBookArtifact) as BookArtifactInput;
const priced = (book: BookArtifactInput, inputs: { offeringId: string; factors: Record<string, string | null> }) => {
  const outcome = evaluate(compileBook(bookArtifactSchema.parse(book)), inputs);
  return outcome.outcome === 'succeeded' ? outcome.computation.totalMinor : outcome.outcome;
};

/** A book, one of its options, and answers to every factor of one offering. */
const withTarget = artifactArbitrary
  .filter((book) => (book.factors ?? []).length > 0)
  .chain((book) =>
    fc.record({
      book: fc.constant(book),
      factor: fc.nat({ max: book.factors!.length - 1 }),
      option: fc.nat(),
      offering: fc.nat({ max: book.offerings.length - 1 }),
      answers: fc.array(fc.nat(), { minLength: book.factors!.length, maxLength: book.factors!.length }),
    }),
  );

describe('editing a draft book', () => {
  it('makes readable, unique ids from labels', () => {
    expect(idFromLabel('Home size', new Set(), 'question')).toBe('home_size');
    expect(idFromLabel('Home size', new Set(['home_size', 'home_size_2']), 'question')).toBe('home_size_3');
    expect(idFromLabel('Größe ≥ 3!', new Set(), 'question')).toBe('grosse_3');
    expect(idFromLabel('???', new Set(), 'question')).toBe('question');
  });

  it('leaves nothing dangling when it removes an offering, a factor or an option that rules use', () => {
    fc.assert(
      fc.property(withTarget, ({ book, factor, option, offering }) => {
        const f = book.factors![factor];
        const o = f.options[option % f.options.length];
        const results = [
          removeOffering(book, book.offerings[offering].id).book,
          removeOffering(book, book.offerings[offering].id, { removeEveryRule: true }).book,
          removeFactor(book, f.id).book,
          removeFactor(book, f.id, { keepRulesWithoutIt: true }).book,
          removeOption(book, f.id, o.id).book,
        ];
        for (const result of results) expect(danglingReferences(result)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('removes exactly: prices of what does not use the removed option, or another offering, stay the same', () => {
    fc.assert(
      fc.property(withTarget, ({ book, factor, option, offering, answers }) => {
        const f = book.factors![factor];
        const removed = f.options[option % f.options.length];
        if (f.options.length < 2) return;
        const factors = Object.fromEntries(
          book.factors!.map((x, i) => {
            const choices = x.id === f.id ? x.options.filter((o) => o.id !== removed.id) : x.options;
            return [x.id, choices[answers[i] % choices.length].id];
          }),
        );
        const inputs = { offeringId: book.offerings[offering].id, factors };
        expect(priced(removeOption(book, f.id, removed.id).book, inputs)).toEqual(priced(book, inputs));
        if (book.offerings.length > 1) {
          const other = book.offerings[(offering + 1) % book.offerings.length];
          expect(priced(removeOffering(book, book.offerings[offering].id).book, { ...inputs, offeringId: other.id })).toEqual(
            priced(book, { ...inputs, offeringId: other.id }),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('says what a removal does to the demo book', () => {
    const { removal } = removeOption(demo, 'storeys', '4_plus');
    expect(removal.rulesRemoved.map((r) => r.id)).toEqual([]);
    expect(removal.rulesChanged.map((r) => r.id)).toEqual(['tall_building']);
    const factor = removeFactor(demo, 'access');
    expect(factor.removal.rulesRemoved.map((r) => r.id)).toEqual(['difficult_access']);
    expect(factor.removal.offeringsChanged.map((o) => o.id)).toEqual(['window_cleaning', 'gutter_cleaning']);
  });

  it('keeps values as people read them when the currency changes', () => {
    const { book, rounded } = changeCurrency(demo, 'JPY');
    expect(book.offerings.find((o) => o.id === 'window_cleaning')!.basePriceMinor).toBe(120);
    expect(rounded).toBe(0);
    const back = changeCurrency(book, 'USD').book;
    expect(priced(back, demoExample)).toEqual(priced(demo, demoExample));
    const withCents = changeCurrency({ ...demo, offerings: [{ ...demo.offerings[0], basePriceMinor: 12050 }] }, 'JPY');
    expect(withCents.book.offerings[0].basePriceMinor).toBe(121);
    expect(withCents.rounded).toBe(1);
  });

  it('a new rule of every kind is born valid, so the draft keeps pricing while the person fills it in', () => {
    for (const phase of ['baseOverride', 'scopedModifier', 'conditionalModifier', 'discount', 'guardrail', 'paymentTerms'] as const) {
      const { book } = addRule(demo, phase);
      expect(bookArtifactSchema.safeParse(book).success, phase).toBe(true);
      expect(typeof priced(book, demoExample), phase).toBe('number');
    }
    // A surcharge when answers match starts on the first question's first answer, for the person to change.
    const { book, index } = addRule(demo, 'conditionalModifier');
    expect(book.rules![index]).toMatchObject({ when: [{ factorId: demo.factors![0].id, optionIds: [demo.factors![0].options[0].id] }] });
    // Without a question there is nothing to match yet: the draft says so in words, not in the schema's.
    const noQuestions = addRule({ ...demo, factors: [], rules: [] }, 'conditionalModifier').book;
    const issues = bookArtifactSchema.safeParse(noQuestions).error!.issues.map((i) => i.message);
    expect(issues).toContain('Add a condition: the answers this rule applies to');
  });

  it('adds rules at the end of their phase, moves them within it, and duplicates them', () => {
    const { book, index } = addRule(demo, 'discount');
    const rules = book.rules!;
    expect(rules[index]).toMatchObject({ phase: 'discount', label: 'Discount' });
    expect(rules.slice(index + 1).every((r) => r.phase !== 'discount')).toBe(true);
    const up = moveRuleWithinPhase(book, index, -1).rules!;
    expect(up.filter((r) => r.phase === 'discount').at(-2)!.id).toBe(rules[index].id);
    expect(moveRuleWithinPhase(book, index, 1)).toBe(book);
    const copied = duplicateRule(demo, 0).rules!;
    expect(copied[1]).toMatchObject({ ...demo.rules![0], id: `${idFromLabel(`${demo.rules![0].label} (copy)`, new Set(), 'rule')}`, label: `${demo.rules![0].label} (copy)` });
  });
});
