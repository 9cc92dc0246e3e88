// The questions a preview asks, read from a draft that may be unfinished or invalid: every
// offering with its factors and their options, skipping whatever is not shaped like one.

export type PreviewQuestion = { factorId: string; label: string; options: { id: string; label: string }[] };
export type PreviewOffering = { id: string; label: string; questions: PreviewQuestion[] };

type Named = { id: string; label: string };

function namedItems(list: unknown): (Named & Record<string, unknown>)[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((item): item is Record<string, unknown> & { id: string } => typeof item === 'object' && item !== null && typeof item.id === 'string')
    .map((item) => ({ ...item, label: typeof item.label === 'string' && item.label.trim() ? item.label : item.id }));
}

export function previewOfferings(artifact: unknown): PreviewOffering[] {
  if (typeof artifact !== 'object' || artifact === null) return [];
  const book = artifact as Record<string, unknown>;
  const factors = new Map(namedItems(book.factors).map((f) => [f.id, f]));
  return namedItems(book.offerings).map((offering) => ({
    id: offering.id,
    label: offering.label,
    questions: (Array.isArray(offering.factorIds) ? offering.factorIds : [])
      .filter((id): id is string => typeof id === 'string')
      .map((factorId) => {
        const factor = factors.get(factorId);
        return {
          factorId,
          label: factor?.label ?? factorId,
          options: namedItems(factor?.options).map(({ id, label }) => ({ id, label })),
        };
      }),
  }));
}
