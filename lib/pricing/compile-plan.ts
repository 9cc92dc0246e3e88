import type { BookArtifact } from './book-artifact';
import { clauseTables } from './compile-clauses';
import { factorTables } from './compile-factors';
import { offeringTables } from './compile-offerings';
import { ruleWordings } from './compile-rule-wordings';
import { inEvaluationOrder, ruleTables } from './compile-rules';
import { scopeTables } from './compile-scopes';
import type { ClauseTables, CompiledFactor, FactorTables, OfferingTables, Plan, RuleTables, RuleWordings, ScopeTables } from './plan';
import type { Wording } from './wording';

/** The plan of a book: its tables by concern (plan.ts says what each holds), in one flat object. */
export function compilePlan(artifact: BookArtifact, factors: ReadonlyMap<string, CompiledFactor>, w: Wording): Plan {
  const rules = inEvaluationOrder(artifact.rules);
  const offerings = offeringTables(artifact, factors, w);
  return planOf(
    ruleTables(rules),
    ruleWordings(rules, w),
    scopeTables(rules, artifact.offerings, offerings.offeringIndex, w),
    clauseTables(artifact, rules, factors, w),
    factorTables(artifact, factors, w),
    offerings,
    w,
  );
}

// Written out as one object literal, not spread: V8 then keeps every table inside the object,
// where pricing's innermost loops read it with one load (spread parts go to a side array).
function planOf(r: RuleTables, rw: RuleWordings, s: ScopeTables, c: ClauseTables, f: FactorTables, o: OfferingTables, wording: Wording): Plan {
  return {
    ruleCount: r.ruleCount,
    phaseStart: r.phaseStart,
    phases: r.phases,
    ids: r.ids,
    labels: r.labels,
    ruleTypes: r.ruleTypes,
    values: r.values,
    flags: r.flags,
    scope: s.scope,
    scopeBits: s.scopeBits,
    outOfScope: s.outOfScope,
    clauseStart: c.clauseStart,
    clauseFactor: c.clauseFactor,
    clauseSlot: c.clauseSlot,
    reasons: c.reasons,
    lazyMatches: c.lazyMatches,
    lazyReasons: c.lazyReasons,
    appliedSuffix: rw.appliedSuffix,
    appliedWithoutClauses: rw.appliedWithoutClauses,
    alreadyApplied: rw.alreadyApplied,
    guardrailSkip: rw.guardrailSkip,
    guardrailApplied: rw.guardrailApplied,
    appliedSlot: c.appliedSlot,
    appliedWords: c.appliedWords,
    matchRank: c.matchRank,
    matchRadix: c.matchRadix,
    applied: c.applied,
    numericKey: c.numericKey,
    clauseRadix: c.clauseRadix,
    factorIds: f.factorIds,
    optionIds: f.optionIds,
    optionLabels: f.optionLabels,
    optionNumbers: f.optionNumbers,
    factorIndex: f.factorIndex,
    required: f.required,
    assumed: f.assumed,
    assumedNote: f.assumedNote,
    missingInput: f.missingInput,
    inspection: f.inspection,
    offerings: o.offerings,
    offeringIndex: o.offeringIndex,
    offeringFactors: o.offeringFactors,
    asked: o.asked,
    baseReason: o.baseReason,
    conditions: o.conditions,
    wording,
    factors: f.factors,
  };
}
