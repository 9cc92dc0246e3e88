import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from './demo-book';
import { diffArtifacts, isUnchanged } from './artifact-diff';

const demo = () => structuredClone(demoBookArtifact) as unknown as Record<string, any>;

describe('diffArtifacts', () => {
  it('finds nothing between equal artifacts, whatever their key order', () => {
    const reordered = demo();
    reordered.rules[0] = Object.fromEntries(Object.entries(reordered.rules[0]).reverse());
    const diff = diffArtifacts(demo(), reordered);
    expect(isUnchanged(diff)).toBe(true);
  });

  it('reports a changed field of an offering with old and new values', () => {
    const after = demo();
    after.offerings[0].basePriceMinor = 9000;
    expect(diffArtifacts(demo(), after).entities).toEqual([
      {
        kind: 'offering',
        id: 'window_cleaning',
        label: 'Window cleaning',
        change: 'changed',
        fields: [{ field: 'basePriceMinor', before: 12000, after: 9000 }],
      },
    ]);
  });

  it('reports nested rule fields, factor options by id, and list fields as a whole', () => {
    const after = demo();
    after.rules[4].adjustment.basisPoints = 2000; // difficult_access
    after.rules[1].when[0].optionIds = ['large']; // large_home
    after.factors[0].options.push({ id: 'huge', label: 'Huge' });
    after.factors[0].options[0].label = 'Small';
    const byId = Object.fromEntries(diffArtifacts(demo(), after).entities.map((e) => [e.id, e.fields]));
    expect(byId.difficult_access).toEqual([{ field: 'adjustment.basisPoints', before: 1500, after: 2000 }]);
    expect(byId.large_home).toEqual([
      {
        field: 'when',
        before: [{ factorId: 'home_size', optionIds: ['medium', 'large'] }],
        after: [{ factorId: 'home_size', optionIds: ['large'] }],
      },
    ]);
    expect(byId.home_size).toEqual([
      { field: 'options.small.label', before: 'Up to 2 bedrooms', after: 'Small' },
      { field: 'options.huge.label', before: undefined, after: 'Huge' },
    ]);
  });

  it('reports added and removed entities by id, not by position', () => {
    const after = demo();
    const [removed] = after.rules.splice(0, 1); // commercial_base; every later rule shifts
    after.offerings.push({ id: 'roof', label: 'Roof moss removal', basePriceMinor: 30000, factorIds: [] });
    const diff = diffArtifacts(demo(), after);
    expect(diff.entities.map((e) => [e.kind, e.id, e.change])).toEqual([
      ['offering', 'roof', 'added'],
      ['rule', removed.id, 'removed'],
    ]);
    expect(diff.ruleOrderChanged).toBe(false);
  });

  it('reports settings, conditions and a new rule order', () => {
    const after = demo();
    after.currency = 'EUR';
    after.autonomy = 'approval_first';
    after.conditions = [after.conditions[0], 'Cash only.'];
    [after.rules[1], after.rules[2]] = [after.rules[2], after.rules[1]];
    const diff = diffArtifacts(demo(), after);
    expect(diff.settings).toEqual([
      { field: 'currency', before: 'USD', after: 'EUR' },
      { field: 'autonomy', before: 'autonomous', after: 'approval_first' },
    ]);
    expect(diff.conditions).toEqual({ added: ['Cash only.'], removed: [demoBookArtifact.conditions[1]] });
    expect(diff.ruleOrderChanged).toBe(true);
    expect(diff.entities).toEqual([]);
  });

  it('tolerates artifacts that are not books at all', () => {
    expect(isUnchanged(diffArtifacts(null, {}))).toBe(true);
    expect(diffArtifacts({ offerings: 'x' }, { offerings: [{ id: 'a', label: 'A' }] }).entities).toHaveLength(1);
  });
});
