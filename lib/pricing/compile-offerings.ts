import type { BookArtifact } from './book-artifact';
import type { CompiledFactor, OfferingTables } from './plan';
import type { Wording } from './wording';

/** Offerings by index: the factors each asks, its base wording and its receipt conditions. */
export function offeringTables(artifact: BookArtifact, factors: ReadonlyMap<string, CompiledFactor>, w: Wording): OfferingTables {
  return {
    offerings: artifact.offerings,
    offeringIndex: new Map(artifact.offerings.map((o, i) => [o.id, i])),
    offeringFactors: artifact.offerings.map((o) => Int32Array.from(o.factorIds, (id) => factors.get(id)!.index)),
    asked: artifact.offerings.map((o) => {
      const mask = new Uint8Array(artifact.factors.length);
      for (const id of o.factorIds) mask[factors.get(id)!.index] = 1;
      return mask;
    }),
    baseReason: artifact.offerings.map((o) => `base price of ${w.offering(o)} is ${w.money(o.basePriceMinor)}`),
    conditions: artifact.offerings.map((o) => [...artifact.conditions, ...o.conditions]),
  };
}
