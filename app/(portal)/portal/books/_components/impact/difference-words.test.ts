import { describe, expect, it } from 'vitest';
import { stepChangeWords } from './difference-words';

const applied = (deltaMinor: number) => ({ status: 'applied' as const, deltaMinor });

describe('a mover’s rule steps in words', () => {
  it('shows a base price as an amount, without a sign', () => {
    expect(stepChangeWords({ phase: 'base', ruleId: null, label: 'Base price', before: applied(12000), after: applied(13200), deltaChangeMinor: 1200 }, 'USD')).toBe('$120.00 → $132.00');
  });

  it('signs a surcharge and a discount, and words a new, removed or skipped rule', () => {
    const rule = { phase: 'scopedModifier' as const, ruleId: 'r', label: 'Larger home' };
    expect(stepChangeWords({ ...rule, before: applied(3000), after: applied(4800), deltaChangeMinor: 1800 }, 'USD')).toBe('+$30.00 → +$48.00');
    expect(stepChangeWords({ ...rule, phase: 'discount', before: applied(-500), after: applied(-1000), deltaChangeMinor: -500 }, 'USD')).toBe('−$5.00 → −$10.00');
    expect(stepChangeWords({ ...rule, before: null, after: applied(2000), deltaChangeMinor: 2000 }, 'USD')).toBe('+$20.00');
    expect(stepChangeWords({ ...rule, before: applied(500), after: null, deltaChangeMinor: -500 }, 'USD')).toBe('was +$5.00');
    expect(stepChangeWords({ ...rule, before: { status: 'skipped', deltaMinor: 0 }, after: applied(500), deltaChangeMinor: 500 }, 'USD')).toBe('does not apply → +$5.00');
  });
});
