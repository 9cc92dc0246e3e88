import type { Offering } from './book-artifact';
import { answerFailure, price, type CompiledBook, type FailureCode, type InspectionNeed, type LineItem, type QuoteComputation } from './evaluate';

/**
 * Range evaluation for the account surface: a service whose answers are partly unknown is
 * priced for every combination of the options those answers could take, and bounded by the
 * lowest and highest totals. Exact: every combination is evaluated by the same engine.
 */

/** Beyond this many combinations a range is not computed (the caller must answer more). */
export const MAX_COMBINATIONS = 4096;
/** Evaluations one simulation request may spend across all its services. */
export const MAX_EVALUATIONS_PER_REQUEST = 20_000;

export type MissingInput = {
  factor: string;
  label: string;
  /** `required`: not answered; `unknown`: answered null where the book needs an answer. */
  reason: 'required' | 'unknown';
  options: { value: string; label: string }[];
};

export type ServiceRange =
  | {
      status: 'priced';
      offering: Offering;
      low: QuoteComputation;
      high: QuoteComputation;
      /** min/max of each line item over the combinations (absent = 0). */
      lineItems: { key: string; kind: LineItem['kind']; label: string; low: number; high: number }[];
      combinations: number;
      missing: MissingInput[];
      /** Factors whose unknown answer was bounded over all of its options. */
      ranged: string[];
      /** Inspections the chosen options need for sure, and those an unknown answer might need. */
      inspections: InspectionNeed[];
      possibleInspections: InspectionNeed[];
      ignored: string[];
    }
  | { status: 'failed'; code: FailureCode | 'too_many_unknowns'; message: string; missing: MissingInput[] };

export function evaluateRange(
  book: CompiledBook,
  service: string,
  selections: Record<string, string | null>,
  maxCombinations = MAX_COMBINATIONS,
): ServiceRange {
  const offering = book.offerings.get(service);
  if (!offering) return { status: 'failed', code: 'unknown_offering', message: `Service "${service}" is not in this book.`, missing: [] };
  const failure = answerFailure(book, selections, 'selection');
  if (failure) return { status: 'failed', ...failure, missing: [] };

  const fixed = new Map<string, string>();
  const unknown: { factorId: string; options: string[] }[] = [];
  const missing: MissingInput[] = [];
  for (const factorId of offering.factorIds) {
    const { factor } = book.factors.get(factorId)!;
    // Own answers only: a factor may be called `constructor`, which every object inherits.
    const value = Object.hasOwn(selections, factorId) ? selections[factorId] : undefined;
    if (typeof value === 'string') {
      fixed.set(factorId, value);
      continue;
    }
    // An optional factor left out, or unknown without an assumption, is simply unanswered (as in evaluate()).
    if (!factor.required && (value === undefined || factor.whenUnknown.action === 'requireInput')) continue;
    unknown.push({ factorId, options: factor.options.map((o) => o.id) });
    if (value === undefined || factor.whenUnknown.action === 'requireInput') {
      missing.push({
        factor: factorId,
        label: factor.label,
        reason: value === undefined ? 'required' : 'unknown',
        options: factor.options.map((o) => ({ value: o.id, label: o.label })),
      });
    }
  }
  const combinations = unknown.reduce((n, u) => n * u.options.length, 1);
  if (combinations > maxCombinations) {
    return {
      status: 'failed',
      code: 'too_many_unknowns',
      message: `Too many unknown answers to bound the price (${combinations} combinations); answer more selections.`,
      missing,
    };
  }

  let low: QuoteComputation | null = null;
  let high: QuoteComputation | null = null;
  const items = new Map<string, { key: string; kind: LineItem['kind']; label: string; low: number; high: number; seen: number }>();
  const inspections = new Map<string, InspectionNeed>();
  const possible = new Map<string, InspectionNeed>();
  const unknownIds = new Set(unknown.map((u) => u.factorId));
  const answers = new Map(fixed);
  for (let index = 0; index < combinations; index++) {
    let rest = index;
    for (const u of unknown) {
      answers.set(u.factorId, u.options[rest % u.options.length]);
      rest = Math.floor(rest / u.options.length);
    }
    const outcome = price(book, offering, { answers, notes: new Map(), missing: [] });
    if (outcome.outcome !== 'succeeded') {
      return { status: 'failed', code: outcome.outcome === 'failed' ? outcome.failure.code : 'unknown_offering', message: outcome.outcome === 'failed' ? outcome.failure.message : 'not priced', missing };
    }
    const c = outcome.computation;
    if (!low || c.totalMinor < low.totalMinor) low = c;
    if (!high || c.totalMinor > high.totalMinor) high = c;
    for (const item of c.lineItems) {
      const key = item.ruleId ?? 'base';
      const entry = items.get(key);
      if (!entry) items.set(key, { key, kind: item.kind, label: item.label, low: item.amountMinor, high: item.amountMinor, seen: 1 });
      else {
        entry.low = Math.min(entry.low, item.amountMinor);
        entry.high = Math.max(entry.high, item.amountMinor);
        entry.seen++;
      }
    }
    for (const need of outcome.inspections) {
      (unknownIds.has(need.factorId) ? possible : inspections).set(`${need.factorId}:${need.optionId}`, need);
    }
  }
  return {
    status: 'priced',
    offering,
    low: low!,
    high: high!,
    // A line item missing from some combinations contributes 0 there.
    lineItems: [...items.values()].map(({ seen, ...item }) =>
      seen < combinations ? { ...item, low: Math.min(0, item.low), high: Math.max(0, item.high) } : item,
    ),
    combinations,
    missing,
    ranged: unknown.map((u) => u.factorId),
    inspections: [...inspections.values()],
    possibleInspections: [...possible.values()],
    ignored: Object.keys(selections).filter((id) => !offering.factorIds.includes(id)),
  };
}
