import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '@/lib/books/demo-book';
import { describeField, describeIssuePlace, describeValue } from './describe-change';

describe('describing changes', () => {
  it('names fields in words', () => {
    expect(describeField('basePriceMinor')).toBe('base price');
    expect(describeField('adjustment.basisPoints')).toBe('adjustment percentage');
    expect(describeField('options.large.requiresInspection')).toBe('option "large" needs a site visit');
  });

  it('shows money as money, basis points as percentages and clauses as sentences', () => {
    expect(describeValue('basePriceMinor', 12000, 'USD')).toBe('$120.00');
    expect(describeValue('adjustment.basisPoints', 1500, 'USD')).toBe('15%');
    expect(describeValue('when', [{ factorId: 'storeys', optionIds: ['3', '4_plus'] }], 'USD')).toBe('storeys is 3 or 4_plus');
    expect(describeValue('label', 'Small', 'USD')).toBe('“Small”');
    expect(describeValue('options.huge.label', undefined, 'USD')).toBe('not set');
    expect(describeValue('basePriceMinor', 100, 'not a currency')).toBe('100 (minor units)');
  });

  it('says which entity an issue is about', () => {
    expect(describeIssuePlace(demoBookArtifact, 'rules.4.adjustment.basisPoints')).toBe('rule "difficult_access"');
    expect(describeIssuePlace({ rules: [{}] }, 'rules.0.id')).toBe('rule number 1');
    expect(describeIssuePlace(demoBookArtifact, 'currency')).toBeNull();
  });
});
