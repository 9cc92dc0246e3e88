import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../books/demo-book';
import { bookArtifactSchema, compileBook, evaluate } from './index';
import { MAX_COMBINATIONS, evaluateRange } from './simulate';

const demo = compileBook(bookArtifactSchema.parse(demoBookArtifact));
const storeys = ['1', '2', '3', '4_plus'];

describe('evaluateRange', () => {
  it('equals the single evaluation when every answer is known', () => {
    const selections = { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' };
    const range = evaluateRange(demo, 'window_cleaning', selections);
    const single = evaluate(demo, { offeringId: 'window_cleaning', factors: selections });
    if (range.status !== 'priced' || single.outcome !== 'succeeded') throw new Error('expected prices');
    expect(range.low.totalMinor).toBe(single.computation.totalMinor);
    expect(range.high.totalMinor).toBe(single.computation.totalMinor);
    expect(range.combinations).toBe(1);
    expect(range.missing).toEqual([]);
  });

  it('bounds an unknown answer exactly by the lowest and highest of its options', () => {
    const base = { home_size: 'medium', frequency: 'monthly', access: 'difficult' };
    const range = evaluateRange(demo, 'window_cleaning', { ...base, storeys: null });
    if (range.status !== 'priced') throw new Error('expected a price');
    const totals = storeys.map((s) => {
      const o = evaluate(demo, { offeringId: 'window_cleaning', factors: { ...base, storeys: s } });
      if (o.outcome !== 'succeeded') throw new Error('expected a price');
      return o.computation.totalMinor;
    });
    expect(range.low.totalMinor).toBe(Math.min(...totals));
    expect(range.high.totalMinor).toBe(Math.max(...totals));
    expect(range.low.totalMinor).toBeLessThan(range.high.totalMinor);
    expect(range.missing).toEqual([expect.objectContaining({ factor: 'storeys', reason: 'unknown' })]);
    expect(range.possibleInspections).toEqual([{ factorId: 'storeys', optionId: '4_plus', label: 'Four storeys or more' }]);
    expect(range.inspections).toEqual([]);
  });

  it('agrees with evaluate() that an optional answer left unknown is simply unanswered', () => {
    const selections = { home_size: 'small', storeys: '1', access: 'easy', site_type: null };
    const range = evaluateRange(demo, 'window_cleaning', selections);
    const single = evaluate(demo, { offeringId: 'window_cleaning', factors: selections });
    if (range.status !== 'priced' || single.outcome !== 'succeeded') throw new Error('expected prices');
    expect([range.low.totalMinor, range.high.totalMinor]).toEqual([single.computation.totalMinor, single.computation.totalMinor]);
    expect(range.missing).toEqual([]);
  });

  it('reads only answers that were given, whatever a factor is called (ids like "constructor" or "toString")', () => {
    // Factor ids may be any name, including those of Object.prototype's members: an answer left
    // out must read as unanswered, not as the inherited function.
    const renamed = JSON.parse(JSON.stringify(demoBookArtifact).replaceAll('"frequency"', '"constructor"').replaceAll('"site_type"', '"toString"'));
    const book = compileBook(bookArtifactSchema.parse(renamed));
    const selections = { home_size: 'medium', storeys: '2', access: 'easy' };
    const range = evaluateRange(book, 'window_cleaning', selections);
    const single = evaluate(book, { offeringId: 'window_cleaning', factors: selections });
    const original = evaluateRange(demo, 'window_cleaning', selections);
    if (range.status !== 'priced' || single.outcome !== 'succeeded' || original.status !== 'priced') throw new Error('expected prices');
    expect([range.low.totalMinor, range.high.totalMinor]).toEqual([single.computation.totalMinor, single.computation.totalMinor]);
    expect(range.low.totalMinor).toBe(original.low.totalMinor);
    expect(range.missing).toEqual([]);
  });

  it('treats a missing required answer as unknown and reports it as required', () => {
    const range = evaluateRange(demo, 'gutter_cleaning', { home_size: 'small', access: 'easy' });
    if (range.status !== 'priced') throw new Error('expected a price');
    expect(range.missing.map((m) => [m.factor, m.reason])).toEqual([['storeys', 'required']]);
    expect(range.combinations).toBe(4);
  });

  it('bounds unknowns under an assume policy too, without asking for them', () => {
    const range = evaluateRange(demo, 'window_cleaning', { home_size: 'small', storeys: '1', access: null });
    if (range.status !== 'priced') throw new Error('expected a price');
    expect(range.missing).toEqual([]);
    expect(range.ranged).toEqual(['access']);
    expect(range.high.totalMinor).toBeGreaterThan(range.low.totalMinor);
  });

  it('fails with the engine’s codes and refuses ranges that are too wide', () => {
    expect(evaluateRange(demo, 'pool', {})).toMatchObject({ status: 'failed', code: 'unknown_offering' });
    expect(evaluateRange(demo, 'window_cleaning', { colour: 'red' })).toMatchObject({
      status: 'failed',
      code: 'unknown_factor',
      message: 'Selection "colour" is not in this book.',
    });
    expect(evaluateRange(demo, 'window_cleaning', { storeys: '9' })).toMatchObject({
      status: 'failed',
      code: 'unknown_factor_option',
      message: '"9" is not an option of selection "storeys".',
    });
    // The first bad answer in sorted order, as evaluate() reports it, whatever the key order.
    const both = { zeta: 'x', storeys: '9' };
    expect(evaluateRange(demo, 'window_cleaning', both)).toMatchObject({ code: 'unknown_factor_option' });
    expect(evaluate(demo, { offeringId: 'window_cleaning', factors: both })).toMatchObject({ failure: { code: 'unknown_factor_option' } });
    const wide = compileBook(
      bookArtifactSchema.parse({
        formatVersion: 1,
        currency: 'EUR',
        offerings: [{ id: 'o', label: 'O', basePriceMinor: 100, factorIds: ['a', 'b', 'c'] }],
        factors: ['a', 'b', 'c'].map((id) => ({
          id,
          label: id,
          options: Array.from({ length: 17 }, (_, i) => ({ id: `x${i}`, label: `x${i}` })),
        })),
      }),
    );
    expect(17 ** 3).toBeGreaterThan(MAX_COMBINATIONS);
    expect(evaluateRange(wide, 'o', {})).toMatchObject({ status: 'failed', code: 'too_many_unknowns' });
  });
});
