import { describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '@/lib/books/demo-book';
import { bookArtifactSchema, compileBook, evaluate } from '@/lib/pricing';
import { checkDraft, priceExample, ruleUsage } from './live-check';

describe('checking a draft as it is typed', () => {
  it('prices like the server: the same totals and steps, worded with labels', () => {
    const check = checkDraft(demoBookArtifact);
    expect(check.issues).toEqual({});
    const outcome = priceExample(check.compiled!, { key: 'a', ...demoExample, answers: demoExample.factors });
    const server = evaluate(compileBook(bookArtifactSchema.parse(demoBookArtifact)), demoExample);
    if (outcome.outcome !== 'succeeded' || server.outcome !== 'succeeded') throw new Error('expected prices');
    expect(outcome.computation.totalMinor).toBe(server.computation.totalMinor);
    expect(outcome.computation.derivation.map((d) => [d.ruleId, d.status, d.deltaMinor])).toEqual(
      server.computation.derivation.map((d) => [d.ruleId, d.status, d.deltaMinor]),
    );
    expect(outcome.computation.derivation[0].reason).toBe('base price of Window cleaning is $120.00');
    const reasons = outcome.computation.derivation.map((d) => d.reason).join(' | ');
    expect(reasons).toContain('Home size is “3 to 4 bedrooms”');
    expect(reasons).not.toMatch(/home_size|"medium"/);
  });

  it('tells problems of content from problems of shape', () => {
    const emptyLabel = { ...demoBookArtifact, offerings: [{ ...demoBookArtifact.offerings[0], label: '' }, ...demoBookArtifact.offerings.slice(1)] };
    const content = checkDraft(emptyLabel);
    expect(Object.keys(content.issues)).toEqual(['offerings.0.label']);
    expect(content.shapeIssues).toEqual({});
    const wrongType = { ...demoBookArtifact, offerings: [{ ...demoBookArtifact.offerings[0], basePriceMinor: '120' }] };
    expect(Object.keys(checkDraft(wrongType).shapeIssues)).toEqual(['offerings.0.basePriceMinor']);
    expect(Object.keys(checkDraft({ ...demoBookArtifact, extra: 1 }).shapeIssues)).toEqual(['extra']);
  });

  it('ignores answers the offering does not ask or that no longer exist, and counts where rules applied', () => {
    const compiled = checkDraft(demoBookArtifact).compiled!;
    const left = priceExample(compiled, { key: 'a', offeringId: 'gutter_cleaning', answers: { ...demoExample.factors, frequency: 'monthly', storeys: 'gone' } });
    expect(left.outcome).toBe('requires_input');
    const priced = priceExample(compiled, { key: 'b', offeringId: 'gutter_cleaning', answers: { ...demoExample.factors, frequency: 'monthly' } });
    expect(priced.outcome).toBe('succeeded');
    const usage = ruleUsage([priced, priced, left]);
    expect(usage.get('deposit')).toBe(2);
    expect(usage.get('recurring_discount')).toBeUndefined();
  });
});
