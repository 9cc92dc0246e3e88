// The form model of a price book: what the structured editor shows and a person types — amounts
// as "120.00" in the book's currency, percentages as "12.5", an adjustment as up or down, a
// rule's scope as "every offering" or a list — mapped to and from the artifact (lib/pricing).
// The mapping is exact: any valid artifact comes back unchanged (book-form.property.test.ts).
import type { BookArtifactInput } from '@/lib/pricing/book-artifact';
import type { Phase } from '@/lib/pricing/phases';
import { DEFAULT_QUOTE_VALIDITY_DAYS } from '@/lib/pricing/limits';
import { basisPointsToText, minorToText, textToBasisPoints, textToMinor } from './amount-text';

type ArtifactInput = BookArtifactInput;
export type OfferingInput = ArtifactInput['offerings'][number];
export type FactorInput = NonNullable<ArtifactInput['factors']>[number];
export type OptionInput = FactorInput['options'][number];
export type RuleInput = NonNullable<ArtifactInput['rules']>[number];
export type RulePhase = Exclude<Phase, 'base'>;
export type Autonomy = NonNullable<ArtifactInput['autonomy']>;

export type OfferingForm = {
  id: string;
  label: string;
  description: string | undefined;
  basePrice: string;
  factorIds: string[];
  conditions: string[];
};

export type OptionForm = { id: string; label: string; requiresInspection: boolean | undefined };

/** What an answer of "not sure" does: ask again (the quote needs input), or price as an option. */
export type UnknownForm = { action: 'requireInput' } | { action: 'assume'; optionId: string };

export type FactorForm = { id: string; label: string; required: boolean; unknown: UnknownForm; options: OptionForm[] };

export type ConditionForm = { factorId: string; optionIds: string[] };

export type EffectForm =
  | { kind: 'setPrice'; price: string }
  | { kind: 'adjust'; by: 'amount' | 'percent'; direction: 'up' | 'down'; value: string }
  | { kind: 'reduce'; by: 'amount' | 'percent'; value: string }
  | { kind: 'limit'; limit: 'minimumTotal' | 'maximumTotal'; amount: string }
  | { kind: 'deposit'; percent: string };

export type RuleForm = {
  id: string;
  label: string;
  description: string | undefined;
  phase: RulePhase;
  /** Every offering, or these. */
  scope: 'all' | string[];
  /** All must hold; none = always. */
  conditions: ConditionForm[];
  effect: EffectForm;
};

export type BookForm = {
  currency: string;
  autonomy: Autonomy;
  /** Days a price holds; 0 = no expiry. */
  quoteValidityDays: number;
  conditions: string[];
  offerings: OfferingForm[];
  factors: FactorForm[];
  rules: RuleForm[];
};

/** Text a form field may hold only once it parses: the inputs commit nothing else. */
function minor(text: string, currency: string): number {
  const value = textToMinor(text, currency);
  if (value === null) throw new Error(`"${text}" is not an amount in ${currency}`);
  return value;
}

function basisPoints(text: string): number {
  const value = textToBasisPoints(text);
  if (value === null) throw new Error(`"${text}" is not a percentage`);
  return value;
}

export function toOfferingForm(offering: OfferingInput, currency: string): OfferingForm {
  return {
    id: offering.id,
    label: offering.label,
    description: offering.description,
    basePrice: minorToText(offering.basePriceMinor, currency),
    factorIds: [...(offering.factorIds ?? [])],
    conditions: [...(offering.conditions ?? [])],
  };
}

export function fromOfferingForm(form: OfferingForm, currency: string): OfferingInput {
  return {
    id: form.id,
    label: form.label,
    ...(form.description !== undefined ? { description: form.description } : {}),
    basePriceMinor: minor(form.basePrice, currency),
    factorIds: [...form.factorIds],
    conditions: [...form.conditions],
  };
}

export function toFactorForm(factor: FactorInput): FactorForm {
  const unknown = factor.whenUnknown ?? { action: 'requireInput' };
  return {
    id: factor.id,
    label: factor.label,
    required: factor.required ?? true,
    unknown: unknown.action === 'assume' ? { action: 'assume', optionId: unknown.optionId } : { action: 'requireInput' },
    options: factor.options.map((o) => ({ id: o.id, label: o.label, requiresInspection: o.requiresInspection })),
  };
}

export function fromFactorForm(form: FactorForm): FactorInput {
  return {
    id: form.id,
    label: form.label,
    required: form.required,
    options: form.options.map((o) => ({
      id: o.id,
      label: o.label,
      ...(o.requiresInspection !== undefined ? { requiresInspection: o.requiresInspection } : {}),
    })),
    whenUnknown: form.unknown.action === 'assume' ? { action: 'assume', optionId: form.unknown.optionId } : { action: 'requireInput' },
  };
}

function toEffectForm(rule: RuleInput, currency: string): EffectForm {
  switch (rule.phase) {
    case 'baseOverride':
      return { kind: 'setPrice', price: minorToText(rule.priceMinor, currency) };
    case 'scopedModifier':
    case 'conditionalModifier': {
      const { adjustment } = rule;
      const amount = adjustment.type === 'fixed' ? adjustment.amountMinor : adjustment.basisPoints;
      return {
        kind: 'adjust',
        by: adjustment.type === 'fixed' ? 'amount' : 'percent',
        direction: amount < 0 ? 'down' : 'up',
        value: adjustment.type === 'fixed' ? minorToText(Math.abs(amount), currency) : basisPointsToText(Math.abs(amount)),
      };
    }
    case 'discount':
      return rule.reduction.type === 'fixed'
        ? { kind: 'reduce', by: 'amount', value: minorToText(rule.reduction.amountMinor, currency) }
        : { kind: 'reduce', by: 'percent', value: basisPointsToText(rule.reduction.basisPoints) };
    case 'guardrail':
      return { kind: 'limit', limit: rule.limit, amount: minorToText(rule.amountMinor, currency) };
    case 'paymentTerms':
      return { kind: 'deposit', percent: basisPointsToText(rule.depositBasisPoints) };
  }
}

export function toRuleForm(rule: RuleInput, currency: string): RuleForm {
  return {
    id: rule.id,
    label: rule.label,
    description: rule.description,
    phase: rule.phase,
    scope: rule.offeringIds ? [...rule.offeringIds] : 'all',
    conditions: (rule.when ?? []).map((c) => ({ factorId: c.factorId, optionIds: [...c.optionIds] })),
    effect: toEffectForm(rule, currency),
  };
}

export function fromRuleForm(form: RuleForm, currency: string): RuleInput {
  // A surcharge for chosen offerings always names them, and one that depends on answers always
  // has conditions: kept even while empty, so that the draft says what is missing.
  const scoped = form.scope !== 'all' || form.phase === 'scopedModifier';
  const conditional = form.conditions.length > 0 || form.phase === 'conditionalModifier';
  const common = {
    id: form.id,
    label: form.label,
    ...(form.description !== undefined ? { description: form.description } : {}),
    ...(scoped ? { offeringIds: form.scope === 'all' ? [] : [...form.scope] } : {}),
    ...(conditional ? { when: form.conditions.map((c) => ({ factorId: c.factorId, optionIds: [...c.optionIds] })) } : {}),
  };
  const effect = form.effect;
  switch (form.phase) {
    case 'baseOverride':
      return { ...common, phase: form.phase, priceMinor: minor(effectOf(effect, 'setPrice').price, currency) };
    case 'scopedModifier':
    case 'conditionalModifier': {
      const adjust = effectOf(effect, 'adjust');
      const sign = adjust.direction === 'down' ? -1 : 1;
      const adjustment =
        adjust.by === 'amount'
          ? { type: 'fixed' as const, amountMinor: sign * minor(adjust.value, currency) || 0 }
          : { type: 'percent' as const, basisPoints: sign * basisPoints(adjust.value) || 0 };
      // The schema wants a scope and conditions on these phases; the form keeps what the person chose.
      return { ...common, phase: form.phase, adjustment } as RuleInput;
    }
    case 'discount': {
      const reduce = effectOf(effect, 'reduce');
      const reduction =
        reduce.by === 'amount'
          ? { type: 'fixed' as const, amountMinor: minor(reduce.value, currency) }
          : { type: 'percent' as const, basisPoints: basisPoints(reduce.value) };
      return { ...common, phase: form.phase, reduction };
    }
    case 'guardrail': {
      const limit = effectOf(effect, 'limit');
      return { ...common, phase: form.phase, limit: limit.limit, amountMinor: minor(limit.amount, currency) };
    }
    case 'paymentTerms':
      return { ...common, phase: form.phase, depositBasisPoints: basisPoints(effectOf(effect, 'deposit').percent) };
  }
}

const EFFECT_OF_PHASE: Record<RulePhase, EffectForm['kind']> = {
  baseOverride: 'setPrice',
  scopedModifier: 'adjust',
  conditionalModifier: 'adjust',
  discount: 'reduce',
  guardrail: 'limit',
  paymentTerms: 'deposit',
};

function effectOf<K extends EffectForm['kind']>(effect: EffectForm, kind: K): Extract<EffectForm, { kind: K }> {
  if (effect.kind !== kind) throw new Error(`a ${kind} rule cannot have a ${effect.kind} effect`);
  return effect as Extract<EffectForm, { kind: K }>;
}

/** The effect a rule gets when a person moves it to another phase: the nearest meaning, else a blank one. */
export function effectForPhase(phase: RulePhase, from: EffectForm, currency: string): EffectForm {
  const kind = EFFECT_OF_PHASE[phase];
  if (from.kind === kind) return from;
  const zero = minorToText(0, currency);
  const amountOf = (effect: EffectForm): string | null =>
    effect.kind === 'setPrice' ? effect.price : effect.kind === 'limit' ? effect.amount : (effect.kind === 'adjust' || effect.kind === 'reduce') && effect.by === 'amount' ? effect.value : null;
  switch (kind) {
    case 'setPrice':
      return { kind, price: amountOf(from) ?? zero };
    case 'adjust':
      return from.kind === 'reduce' ? { kind, by: from.by, direction: 'down', value: from.value } : { kind, by: 'amount', direction: 'up', value: amountOf(from) ?? zero };
    case 'reduce':
      return from.kind === 'adjust' ? { kind, by: from.by, value: from.value } : { kind, by: 'amount', value: amountOf(from) ?? zero };
    case 'limit':
      return { kind, limit: 'minimumTotal', amount: amountOf(from) ?? zero };
    case 'deposit':
      return { kind, percent: from.kind === 'adjust' && from.by === 'percent' ? from.value : '25' };
  }
}

export function toBookForm(book: ArtifactInput): BookForm {
  return {
    currency: book.currency,
    autonomy: book.autonomy ?? 'autonomous',
    quoteValidityDays: book.quoteValidityDays ?? DEFAULT_QUOTE_VALIDITY_DAYS,
    conditions: [...(book.conditions ?? [])],
    offerings: book.offerings.map((o) => toOfferingForm(o, book.currency)),
    factors: (book.factors ?? []).map(toFactorForm),
    rules: (book.rules ?? []).map((r) => toRuleForm(r, book.currency)),
  };
}

export function fromBookForm(form: BookForm): ArtifactInput {
  return {
    formatVersion: 1,
    currency: form.currency,
    autonomy: form.autonomy,
    quoteValidityDays: form.quoteValidityDays,
    offerings: form.offerings.map((o) => fromOfferingForm(o, form.currency)),
    factors: form.factors.map(fromFactorForm),
    rules: form.rules.map((r) => fromRuleForm(r, form.currency)),
    conditions: [...form.conditions],
  };
}
