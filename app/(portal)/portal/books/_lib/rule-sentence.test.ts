import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '@/lib/books/demo-book';
import type { BookArtifactInput } from '@/lib/pricing';
import { ruleSentence } from './rule-sentence';

const demo = demoBookArtifact as BookArtifactInput;
const rule = (id: string) => demo.rules!.find((r) => r.id === id)!;

describe('rules as sentences', () => {
  it('reads every phase with labels and money, never ids', () => {
    expect(Object.fromEntries(demo.rules!.map((r) => [r.id, ruleSentence(r, demo)]))).toEqual({
      commercial_base: 'Set the base price of Window cleaning and Gutter cleaning to $250.00 when Site type is Commercial',
      large_home: 'Add 25% to Window cleaning and Gutter cleaning when Home size is 3 to 4 bedrooms or 5 bedrooms or more',
      tall_building: 'Add $45.00 to Window cleaning, Gutter cleaning and Solar panel cleaning when Storeys is Three storeys or Four storeys or more',
      many_panels: 'Add 60% to Solar panel cleaning when Number of panels is 13 to 24 panels or 25 panels or more',
      difficult_access: 'Add 15% to every offering when Access is Difficult: conservatory, steep slope or no side access',
      recurring_discount: 'Take 10% off every offering when How often is Every month or Every three months',
      minimum_charge: 'Charge at least $100.00 for every offering',
      deposit: 'Ask for a 25% deposit on every offering',
    });
  });

  it('names what a draft refers to but lacks', () => {
    const dangling = { ...rule('difficult_access'), when: [{ factorId: 'gone', optionIds: ['x'] }] } as typeof demo.rules extends (infer R)[] | undefined ? R : never;
    expect(ruleSentence(dangling, demo)).toContain('missing question “gone” is missing answer “x”');
  });

  it('says "Take … off" for a negative surcharge', () => {
    expect(ruleSentence({ id: 'r', label: 'x', phase: 'scopedModifier', offeringIds: ['window_cleaning'], adjustment: { type: 'fixed', amountMinor: -500 } }, demo)).toBe(
      'Take $5.00 off Window cleaning',
    );
  });
});
