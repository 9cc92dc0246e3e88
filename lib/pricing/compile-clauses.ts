import type { BookArtifact, Rule } from './book-artifact';
import type { ClauseTables, CompiledFactor } from './plan';
import type { Wording } from './wording';

/** Above this many clause slots, skip reasons are worded on first use instead of at compile time. */
const EAGER_REASON_SLOTS = 1 << 18;
/** Answer keys of applied wordings stay small integers below this. */
const NUMERIC_KEY_LIMIT = 1 << 30;
/** Slots for applied wordings: per rule, and for the whole book (beyond: keyed in maps). */
const RULE_APPLIED_SLOTS = 1 << 12;
const BOOK_APPLIED_SLOTS = 1 << 19;

/**
 * The rules' clauses ("when factor is one of …") flattened in rule order. Each clause has a slot
 * per answer number of its factor, so that pricing finds whether an answer matches, and if not
 * why, with one lookup; and each rule has room for its applied wordings, worded on first use.
 */
export function clauseTables(
  artifact: BookArtifact,
  rules: readonly Rule[],
  factors: ReadonlyMap<string, CompiledFactor>,
  w: Wording,
): ClauseTables {
  const clauseCount = rules.reduce((n, r) => n + (r.when?.length ?? 0), 0);
  const clauseStart = new Int32Array(rules.length + 1);
  const clauseFactor = new Int32Array(clauseCount);
  const clauseSlot = new Int32Array(clauseCount);
  const clauseRadix = new Int32Array(clauseCount);
  const numericKey = new Uint8Array(rules.length);
  const notAnswered = artifact.factors.map((f) => `${w.factor(f)} is not answered`);
  let slots = 0;
  for (const r of rules) for (const c of r.when ?? []) slots += factors.get(c.factorId)!.optionIds.length + 1;
  const eager = slots <= EAGER_REASON_SLOTS;
  const reasons: (string | null)[] = [];
  const lazyMatches: Set<number>[] = [];
  const matchRank = new Uint8Array(eager ? slots : 0).fill(255);
  const matchRadix = new Int32Array(clauseCount);
  const appliedSlot = new Int32Array(rules.length).fill(-1);
  let appliedSlots = 0;

  let clause = 0;
  let slot = 0;
  rules.forEach((rule, position) => {
    clauseStart[position] = clause;
    // How many answer combinations the rule's clauses have: every answer, assumed or not (map
    // keys), and only the matching ones (applied wording slots).
    let keySpace = 1;
    let matchSpace = 1;
    for (const c of rule.when ?? []) {
      const factor = factors.get(c.factorId)!;
      const matches = new Set(c.optionIds.map((id) => factor.optionNumbers.get(id)!));
      clauseFactor[clause] = factor.index;
      clauseSlot[clause] = slot;
      clauseRadix[clause] = (factor.optionIds.length + 1) * 2;
      keySpace *= clauseRadix[clause];
      const assumed = factor.factor.whenUnknown.action === 'assume' ? factor.optionNumbers.get(factor.factor.whenUnknown.optionId)! : 0;
      matchRadix[clause] = matches.size + (matches.has(assumed) ? 1 : 0);
      matchSpace *= matchRadix[clause];
      if (eager) {
        [...matches].sort((a, b) => a - b).forEach((number, rank) => (matchRank[slot + number] = rank));
        const optionList = w.optionList(factor.factor, c.optionIds.map((id) => factor.options.get(id)!));
        reasons.push(notAnswered[factor.index]);
        factor.optionIds.forEach((optionId, i) => {
          reasons.push(matches.has(i + 1) ? null : `${w.factor(factor.factor)} is ${w.option(factor.factor, factor.options.get(optionId)!)}, not one of ${optionList}`);
        });
      } else {
        lazyMatches.push(matches);
      }
      slot += factor.optionIds.length + 1;
      clause++;
    }
    numericKey[position] = keySpace < NUMERIC_KEY_LIMIT ? 1 : 0;
    if (eager && rule.when && matchSpace <= RULE_APPLIED_SLOTS && appliedSlots + matchSpace <= BOOK_APPLIED_SLOTS) {
      appliedSlot[position] = appliedSlots;
      appliedSlots += matchSpace;
    }
  });
  clauseStart[rules.length] = clause;

  return {
    clauseStart,
    clauseFactor,
    clauseSlot,
    clauseRadix,
    reasons,
    lazyMatches: eager ? null : lazyMatches,
    lazyReasons: new Map(),
    appliedSlot,
    appliedWords: Array.from({ length: appliedSlots }, () => undefined),
    matchRank,
    matchRadix,
    applied: rules.map(() => undefined),
    numericKey,
  };
}
