import type { Phase } from './phases';
import type { CompiledBook, DerivationEntry, Outcome } from './evaluate';

/**
 * How two prices of the same answers compare: one from the book that answered (or nothing, when
 * no book was published), one from another book. Pure, like the engine; amounts in minor units.
 */

/** What happened to a request's price: `unchanged` covers "not priced either way" too. */
export const CHANGE_KINDS = ['unchanged', 'higher', 'lower', 'newly_requires_input', 'newly_failed', 'now_priced'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** An outcome, or null when there was nothing to price with (no published version). */
export type PricedOutcome = Outcome | null;

export function totalOf(outcome: PricedOutcome): number | null {
  return outcome !== null && outcome.outcome === 'succeeded' ? outcome.computation.totalMinor : null;
}

/** The outcome as a word: `failed` when nothing was published. */
export function outcomeName(outcome: PricedOutcome): Outcome['outcome'] {
  return outcome === null ? 'failed' : outcome.outcome;
}

export function classifyChange(before: PricedOutcome, after: PricedOutcome): ChangeKind {
  const was = outcomeName(before);
  const is = outcomeName(after);
  if (was === 'succeeded' && is === 'succeeded') {
    const difference = totalOf(after)! - totalOf(before)!;
    return difference > 0 ? 'higher' : difference < 0 ? 'lower' : 'unchanged';
  }
  if (is === 'succeeded') return 'now_priced';
  if (is === was) return 'unchanged';
  return is === 'requires_input' ? 'newly_requires_input' : 'newly_failed';
}

/**
 * Fixed buckets of relative change, in whole percent: a change c falls in the first bucket
 * whose upper bound it does not exceed, so -20% is "≤ -20%", 2% is "2% to 10%" and 0 is "-2% to 2%".
 */
export const CHANGE_BUCKETS = [
  { id: 'down_20_or_more', label: '−20% or more', below: null, upTo: -20, inclusiveUpper: true },
  { id: 'down_10_to_20', label: '−20% to −10%', below: -20, upTo: -10, inclusiveUpper: true },
  { id: 'down_2_to_10', label: '−10% to −2%', below: -10, upTo: -2, inclusiveUpper: true },
  { id: 'within_2', label: '−2% to +2%', below: -2, upTo: 2, inclusiveUpper: false },
  { id: 'up_2_to_10', label: '+2% to +10%', below: 2, upTo: 10, inclusiveUpper: false },
  { id: 'up_10_to_20', label: '+10% to +20%', below: 10, upTo: 20, inclusiveUpper: false },
  { id: 'up_20_or_more', label: '+20% or more', below: 20, upTo: null, inclusiveUpper: false },
] as const;
export type ChangeBucketId = (typeof CHANGE_BUCKETS)[number]['id'];

/**
 * The bucket of a change from `beforeMinor` to `afterMinor` (both priced). Decided in integers
 * (difference × 100 against percent × before) so that a change of exactly 10% is never 9.99…%.
 * From 0 to more than 0 is an unbounded rise.
 */
export function changeBucket(beforeMinor: number, afterMinor: number): number {
  const difference = afterMinor - beforeMinor;
  if (beforeMinor === 0) return difference === 0 ? 3 : 6;
  const scaled = difference * 100; // |difference| ≤ 10^12, so this stays below 2^53
  for (let i = 0; i < CHANGE_BUCKETS.length - 1; i++) {
    const bound = CHANGE_BUCKETS[i].upTo! * beforeMinor;
    if (CHANGE_BUCKETS[i].inclusiveUpper ? scaled <= bound : scaled < bound) return i;
  }
  return CHANGE_BUCKETS.length - 1;
}

/** Relative change in percent, rounded to 0.01; null for a rise from 0. */
export function changePercent(beforeMinor: number, afterMinor: number): number | null {
  if (beforeMinor === 0) return afterMinor === 0 ? 0 : null;
  return Math.round(((afterMinor - beforeMinor) * 10_000) / beforeMinor) / 100;
}

/** Whether a change moves the price by more than `percent` either way (a rise from 0 always does). */
export function changesByMoreThan(beforeMinor: number, afterMinor: number, percent: number): boolean {
  const difference = Math.abs(afterMinor - beforeMinor);
  if (beforeMinor === 0) return difference > 0;
  return difference * 100 > percent * beforeMinor;
}

export type RuleStep = { status: DerivationEntry['status']; deltaMinor: number };

/** One rule that priced differently: its step in each book (null where the book has no such rule). */
export type RuleDifference = {
  phase: Phase;
  /** null for the offering's base price (and the whole-balance step when no deposit rule applies). */
  ruleId: string | null;
  /** `offeringBase` and `fullBalance` for those two steps. */
  ruleType: string | null;
  label: string;
  before: RuleStep | null;
  after: RuleStep | null;
  /** after's delta minus before's: these add up to the difference of the totals. */
  deltaChangeMinor: number;
};

/**
 * The rules that make two priced outcomes of the same answers differ, in evaluation order of
 * the `after` book (rules only `before` had come after, in its order). A rule is listed when
 * its delta or its status differs; the deltaChangeMinor of the list add up to
 * totalAfter - totalBefore, because every derivation's deltas add up to its total.
 */
export function ruleDifferences(
  beforeBook: CompiledBook,
  before: DerivationEntry[],
  afterBook: CompiledBook,
  after: DerivationEntry[],
): RuleDifference[] {
  const beforeByKey = new Map(before.map((entry) => [stepKey(entry), entry]));
  const differences: RuleDifference[] = [];
  const step = (entry: DerivationEntry | undefined): RuleStep | null =>
    entry ? { status: entry.status, deltaMinor: entry.deltaMinor } : null;
  const consider = (b: DerivationEntry | undefined, a: DerivationEntry | undefined) => {
    const entry = (a ?? b)!;
    if (b && a && b.status === a.status && b.deltaMinor === a.deltaMinor) return;
    differences.push({
      phase: entry.phase,
      ruleId: entry.ruleId,
      ruleType: entry.ruleType,
      label: stepLabel(a ? afterBook : beforeBook, entry),
      before: step(b),
      after: step(a),
      deltaChangeMinor: (a?.deltaMinor ?? 0) - (b?.deltaMinor ?? 0),
    });
  };
  for (const entry of after) {
    const k = stepKey(entry);
    consider(beforeByKey.get(k), entry);
    beforeByKey.delete(k);
  }
  for (const entry of beforeByKey.values()) consider(entry, undefined);
  return differences;
}

/** What matches a step across two derivations: its rule, or for the two steps no rule makes, its kind. */
export function stepKey(entry: Pick<DerivationEntry, 'ruleId' | 'ruleType'>): string {
  return entry.ruleId ?? `:${entry.ruleType}`;
}

// Rule labels by id, once per book: a waterfall of a large book labels thousands of steps.
const ruleLabels = new WeakMap<CompiledBook['artifact'], ReadonlyMap<string, string>>();

/** A step as people name it: its rule's label in the book, or "Base price" / "Whole balance due". */
export function stepLabel(book: Pick<CompiledBook, 'artifact'>, entry: Pick<DerivationEntry, 'ruleId' | 'ruleType'>): string {
  if (entry.ruleId === null) return entry.ruleType === 'offeringBase' ? 'Base price' : 'Whole balance due';
  let labels = ruleLabels.get(book.artifact);
  if (!labels) ruleLabels.set(book.artifact, (labels = new Map(book.artifact.rules.map((rule) => [rule.id, rule.label]))));
  return labels.get(entry.ruleId) ?? entry.ruleId;
}

export type BookLabels = ReturnType<typeof bookLabels>;

/** Labels of offerings, factors and options from the first book that has the thing, else its id. */
export function bookLabels(books: readonly CompiledBook[]) {
  return {
    offering: (id: string) => books.find((b) => b.offerings.has(id))?.offerings.get(id)?.label ?? id,
    factor: (id: string) => books.find((b) => b.factors.has(id))?.factors.get(id)?.factor.label ?? id,
    option: (factorId: string, optionId: string) =>
      books.find((b) => b.factors.get(factorId)?.options.has(optionId))?.factors.get(factorId)?.options.get(optionId)?.label ?? optionId,
  };
}
