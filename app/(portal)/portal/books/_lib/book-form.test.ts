import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookArtifactSchema } from '@/lib/pricing/book-artifact';
import { artifactArbitrary } from './artifact-arbitrary';
import { effectForPhase, fromBookForm, fromRuleForm, toBookForm, toRuleForm } from './book-form';

describe('the form model of a price book', () => {
  it('gives back any valid artifact unchanged, byte for byte in canonical JSON', () => {
    fc.assert(
      fc.property(artifactArbitrary, (input) => {
        const artifact = bookArtifactSchema.parse(input);
        expect(canonicalize(fromBookForm(toBookForm(artifact)))).toBe(canonicalize(artifact));
      }),
      { numRuns: 300 },
    );
  });

  it('shows amounts in the currency, percentages as percentages, and adjustments as up or down', () => {
    const form = toRuleForm(
      { id: 'r', label: 'Discount', phase: 'scopedModifier', offeringIds: ['a'], adjustment: { type: 'fixed', amountMinor: -1250 } },
      'USD',
    );
    expect(form.effect).toEqual({ kind: 'adjust', by: 'amount', direction: 'down', value: '12.50' });
    expect(form.scope).toEqual(['a']);
    const percent = toRuleForm({ id: 'r', label: 'Late', phase: 'paymentTerms', depositBasisPoints: 2500 }, 'USD');
    expect(percent).toMatchObject({ scope: 'all', conditions: [], effect: { kind: 'deposit', percent: '25' } });
  });

  it('keeps an adjustment of zero positive, and a rule moved to another phase meaningful', () => {
    const down = { id: 'r', label: 'x', description: undefined, phase: 'conditionalModifier' as const, scope: 'all' as const, conditions: [{ factorId: 'f', optionIds: ['o'] }], effect: { kind: 'adjust' as const, by: 'amount' as const, direction: 'down' as const, value: '0' } };
    expect(fromRuleForm(down, 'USD')).toMatchObject({ adjustment: { type: 'fixed', amountMinor: 0 } });
    expect(Object.is((fromRuleForm(down, 'USD') as { adjustment: { amountMinor: number } }).adjustment.amountMinor, -0)).toBe(false);
    expect(effectForPhase('discount', down.effect, 'USD')).toEqual({ kind: 'reduce', by: 'amount', value: '0' });
    expect(effectForPhase('baseOverride', { kind: 'limit', limit: 'minimumTotal', amount: '80.00' }, 'USD')).toEqual({ kind: 'setPrice', price: '80.00' });
    expect(effectForPhase('paymentTerms', { kind: 'setPrice', price: '80.00' }, 'USD')).toEqual({ kind: 'deposit', percent: '25' });
  });
});
