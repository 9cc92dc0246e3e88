import type { Offering, Rule } from './book-artifact';
import type { ScopeTables } from './plan';
import type { Wording } from './wording';

/**
 * Each rule scoped to some offerings gets a bitset by offering index (32 offerings a word), so
 * that pricing tests its scope with one AND; a rule for every offering has none.
 */
export function scopeTables(
  rules: readonly Rule[],
  offerings: readonly Offering[],
  offeringIndex: ReadonlyMap<string, number>,
  w: Wording,
): ScopeTables {
  const scopeWords = Math.ceil(offerings.length / 32);
  const scopeBits = new Uint32Array(rules.filter((r) => r.offeringIds).length * scopeWords);
  const scope = new Int32Array(rules.length);
  let scoped = 0;
  rules.forEach((rule, position) => {
    if (!rule.offeringIds) {
      scope[position] = -1;
      return;
    }
    scope[position] = scoped * scopeWords;
    for (const id of rule.offeringIds) {
      const i = offeringIndex.get(id)!;
      scopeBits[scoped * scopeWords + (i >>> 5)] |= 1 << (i & 31);
    }
    scoped++;
  });
  return {
    scope,
    scopeBits,
    outOfScope: rules.map((r) => `applies only to offerings ${w.offeringList((r.offeringIds ?? []).map((id) => offerings[offeringIndex.get(id)!]))}`),
  };
}
