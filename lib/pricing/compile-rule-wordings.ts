import type { Rule } from './book-artifact';
import type { RuleWordings } from './plan';
import type { Wording } from './wording';

/** The constant parts of each rule's reasons, worded once per book. */
export function ruleWordings(rules: readonly Rule[], w: Wording): RuleWordings {
  const suffixes = rules.map((r) => appliedSuffix(r, w));
  return {
    appliedSuffix: suffixes,
    appliedWithoutClauses: rules.map((r, p) => `${r.offeringIds ? 'offering in scope' : 'applies to every quote'}${suffixes[p]}`),
    alreadyApplied: rules.map((r) =>
      r.phase === 'paymentTerms' ? `payment terms already set by ${w.rule(r)}` : `base already overridden by ${w.rule(r)}`,
    ),
    guardrailSkip: rules.map((r) =>
      r.phase !== 'guardrail' ? '' : ` is already ${isMinimum(r) ? 'at or above the minimum' : 'at or below the maximum'} of ${w.money(r.amountMinor)}`,
    ),
    guardrailApplied: rules.map((r) =>
      r.phase !== 'guardrail' ? '' : ` ${isMinimum(r) ? 'raised to the minimum' : 'lowered to the maximum'} of ${w.money(r.amountMinor)}`,
    ),
  };
}

/** What an applied rule did, after the answers that matched; a percentage ends with "of " and the total it was taken of. */
function appliedSuffix(rule: Rule, w: Wording): string {
  switch (rule.phase) {
    case 'baseOverride':
      return `; base set to ${w.money(rule.priceMinor)}`;
    case 'scopedModifier':
    case 'conditionalModifier':
      return rule.adjustment.type === 'fixed'
        ? `; adjusts by ${w.money(rule.adjustment.amountMinor)}`
        : `; adjusts by ${w.percent(rule.adjustment.basisPoints)} of `;
    case 'discount':
      return rule.reduction.type === 'fixed'
        ? `; takes off ${w.money(rule.reduction.amountMinor)}`
        : `; takes off ${w.percent(rule.reduction.basisPoints)} of `;
    case 'guardrail':
      return '';
    case 'paymentTerms':
      return `; deposit of ${w.percent(rule.depositBasisPoints)}`;
  }
}

const isMinimum = (rule: Rule) => rule.phase === 'guardrail' && rule.limit === 'minimumTotal';
