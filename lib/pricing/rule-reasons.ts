import type { Notes, Plan } from './plan';

// The wordings of rules' outcomes that depend on the answers: why a rule is skipped, and which
// answers made it apply. Both are looked up or built once and then reused (see ClauseTables).

/** Why the rule at position p does not apply (out of scope, or the first clause that fails), or null. */
export function whyNotApplicable(plan: Plan, p: number, scopeWord: number, scopeBit: number, row: Uint16Array): string | null {
  const scope = plan.scope[p];
  if (scope >= 0 && (plan.scopeBits[scope + scopeWord] & scopeBit) === 0) return plan.outOfScope[p];
  const end = plan.clauseStart[p + 1];
  for (let k = plan.clauseStart[p]; k < end; k++) {
    const slot = plan.clauseSlot[k] + row[plan.clauseFactor[k]];
    let reason = plan.reasons[slot];
    if (reason === undefined) reason = lazyReason(plan, k, slot);
    if (reason !== null) return reason;
  }
  return null;
}

/** Very large books: a clause slot's skip reason (or null), worded on first use. */
function lazyReason(plan: Plan, clause: number, slot: number): string | null {
  let reason = plan.lazyReasons.get(slot);
  if (reason === undefined) {
    const w = plan.wording;
    const factor = plan.factors[plan.clauseFactor[clause]];
    const answer = slot - plan.clauseSlot[clause];
    const matches = plan.lazyMatches![clause];
    reason =
      answer === 0
        ? `${w.factor(factor)} is not answered`
        : matches.has(answer)
          ? null
          : `${w.factor(factor)} is ${w.option(factor, factor.options[answer - 1])}, not one of ${w.optionList(factor, [...matches].map((n) => factor.options[n - 1]))}`;
    plan.lazyReasons.set(slot, reason);
  }
  return reason;
}

// An applied wording depends only on the rule and its clauses' answers (and whether each was
// assumed), so each is built once, keyed by the answers' option numbers.
export function appliedReason(plan: Plan, p: number, row: Uint16Array, notes: Notes, memoise: boolean): string {
  const start = plan.clauseStart[p];
  const end = plan.clauseStart[p + 1];
  if (start === end) return plan.appliedWithoutClauses[p];
  if (!memoise) return wordApplied(plan, p, row, notes);
  const at = plan.appliedSlot[p];
  if (at >= 0) {
    let index = at;
    let place = 1;
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      const rank = notes !== null && notes[factor] !== undefined ? plan.matchRadix[k] - 1 : plan.matchRank[plan.clauseSlot[k] + row[factor]];
      index += rank * place;
      place *= plan.matchRadix[k];
    }
    let reason = plan.appliedWords[index];
    if (reason === undefined) plan.appliedWords[index] = reason = wordApplied(plan, p, row, notes);
    return reason;
  }
  let key: number | string = 0;
  if (plan.numericKey[p] === 1) {
    let place = 1;
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      key += (row[factor] * 2 + (notes !== null && notes[factor] !== undefined ? 1 : 0)) * place;
      place *= plan.clauseRadix[k];
    }
  } else {
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      key = `${key},${row[factor]}${notes !== null && notes[factor] !== undefined ? '*' : ''}`;
    }
  }
  let memo = plan.applied[p];
  if (memo === undefined) plan.applied[p] = memo = new Map();
  let reason = memo.get(key);
  if (reason === undefined) memo.set(key, (reason = wordApplied(plan, p, row, notes)));
  return reason;
}

/** "factor is option (assumption)" for each clause, joined, then what the rule did. */
function wordApplied(plan: Plan, p: number, row: Uint16Array, notes: Notes): string {
  const words: string[] = [];
  for (let k = plan.clauseStart[p]; k < plan.clauseStart[p + 1]; k++) {
    const factor = plan.factors[plan.clauseFactor[k]];
    const note = notes === null ? undefined : notes[plan.clauseFactor[k]];
    words.push(`${plan.wording.factor(factor)} is ${plan.wording.option(factor, factor.options[row[plan.clauseFactor[k]] - 1])}${note ? ` (${note})` : ''}`);
  }
  return `${words.join(' and ')}${plan.appliedSuffix[p]}`;
}
