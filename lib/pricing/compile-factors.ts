import type { BookArtifact } from './book-artifact';
import type { CompiledFactor, FactorTables } from './plan';
import type { Wording } from './wording';

/** Each factor by id, with its options by id and by number. */
export function compileFactors(artifact: BookArtifact): ReadonlyMap<string, CompiledFactor> {
  return new Map(
    artifact.factors.map((f, index) => [
      f.id,
      {
        factor: f,
        index,
        options: new Map(f.options.map((o) => [o.id, o])),
        optionNumbers: new Map(f.options.map((o, i) => [o.id, i + 1])),
        optionIds: f.options.map((o) => o.id),
      },
    ]),
  );
}

/** Factors by index: what turns answers into an answer row, and what an unknown answer means. */
export function factorTables(artifact: BookArtifact, factors: ReadonlyMap<string, CompiledFactor>, w: Wording): FactorTables {
  return {
    factors: artifact.factors,
    factorIds: artifact.factors.map((f) => f.id),
    optionIds: artifact.factors.map((f) => f.options.map((o) => o.id)),
    optionLabels: artifact.factors.map((f) => f.options.map((o) => o.label)),
    optionNumbers: artifact.factors.map((f) => factors.get(f.id)!.optionNumbers),
    factorIndex: new Map(artifact.factors.map((f, i) => [f.id, i])),
    required: Uint8Array.from(artifact.factors, (f) => (f.required ? 1 : 0)),
    assumed: Int32Array.from(artifact.factors, (f) =>
      f.whenUnknown.action === 'assume' ? factors.get(f.id)!.optionNumbers.get(f.whenUnknown.optionId)! : 0,
    ),
    assumedNote: artifact.factors.map((f) =>
      f.whenUnknown.action === 'assume' ? `unknown, assumed ${w.option(f, f.options.find((o) => o.id === (f.whenUnknown as { optionId: string }).optionId)!)}` : undefined,
    ),
    missingInput: artifact.factors.map((f) => `factors.${f.id}`),
    inspection: artifact.factors.map((f) => Uint8Array.from([0, ...f.options.map((o) => (o.requiresInspection ? 1 : 0))])),
  };
}
