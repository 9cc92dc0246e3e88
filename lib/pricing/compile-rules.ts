import type { Rule } from './book-artifact';
import { PHASES } from './phases';
import { PRICED_PHASES, type RuleTables } from './plan';

/** The book's rules in evaluation order: phase by phase (PRICED_PHASES), then in book order. */
export function inEvaluationOrder(rules: readonly Rule[]): Rule[] {
  return PRICED_PHASES.flatMap((phase) => rules.filter((r) => r.phase === phase));
}

/** What each rule (in evaluation order) is and does, and where each phase's rules start. */
export function ruleTables(rules: readonly Rule[]): RuleTables {
  const phaseStart = PRICED_PHASES.map((phase) => rules.findIndex((r) => PHASES.indexOf(r.phase) >= PHASES.indexOf(phase)));
  phaseStart.push(rules.length);
  // A phase without rules starts where the next one does.
  for (let i = phaseStart.length - 2; i >= 0; i--) if (phaseStart[i] < 0) phaseStart[i] = phaseStart[i + 1];
  const actions = rules.map(actionOf);
  return {
    ruleCount: rules.length,
    phaseStart,
    phases: rules.map((r) => r.phase),
    ids: rules.map((r) => r.id),
    labels: rules.map((r) => r.label),
    ruleTypes: actions.map(([ruleType]) => ruleType),
    values: actions.map(([, value]) => value),
    flags: Uint8Array.from(actions, ([, , flag]) => flag),
  };
}

/** A rule's type (as its derivation entry names it), its amount, and its flag (see RuleTables). */
function actionOf(rule: Rule): [ruleType: string, value: number, flag: 0 | 1] {
  switch (rule.phase) {
    case 'baseOverride':
      return ['setBase', rule.priceMinor, 0];
    case 'scopedModifier':
    case 'conditionalModifier':
      return rule.adjustment.type === 'fixed' ? ['fixed', rule.adjustment.amountMinor, 0] : ['percent', rule.adjustment.basisPoints, 1];
    case 'discount':
      return rule.reduction.type === 'fixed' ? ['fixed', rule.reduction.amountMinor, 0] : ['percent', rule.reduction.basisPoints, 1];
    case 'guardrail':
      return [rule.limit, rule.amountMinor, rule.limit === 'minimumTotal' ? 1 : 0];
    case 'paymentTerms':
      return ['deposit', rule.depositBasisPoints, 0];
  }
}
