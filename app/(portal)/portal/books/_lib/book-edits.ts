// Edits of a draft price book, as the structured editor makes them: each takes the draft and
// returns a new one (the old is never changed, so undo is a pointer). Removing something that
// rules refer to is exact: whatever could no longer apply goes with it, nothing dangles.
import type { BookArtifactInput } from '@/lib/pricing/book-artifact';
import { decimalsOf } from './amount-text';
import type { FactorInput, OfferingInput, OptionInput, RuleInput, RulePhase } from './book-form';

export type Book = BookArtifactInput;

const rulesOf = (book: Book) => book.rules ?? [];
const factorsOf = (book: Book) => book.factors ?? [];

/** A readable, unique id from a label: "Home size" → "home_size" (then "home_size_2", …). */
export function idFromLabel(label: string, taken: ReadonlySet<string>, fallback: string): string {
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || fallback;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** The list with the item at `index` replaced. */
export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((x, i) => (i === index ? item : x));
}

/** Moves the item at `from` to `to` (both indices in the list as it is). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

// --- the book ----------------------------------------------------------------------------------

/**
 * Another currency, keeping every amount's value as people read it (120.00 USD becomes 120 JPY,
 * not 12000): amounts are rescaled to the new minor unit. `rounded` counts the ones that had
 * more decimals than the new currency has (rounded half away from zero).
 */
export function changeCurrency(book: Book, currency: string): { book: Book; rounded: number } {
  const shift = decimalsOf(currency) - decimalsOf(book.currency);
  let rounded = 0;
  const scale = (minor: number): number => {
    if (shift >= 0) return minor * 10 ** shift;
    const divisor = 10 ** -shift;
    if (minor % divisor !== 0) rounded++;
    const magnitude = Math.floor((Math.abs(minor) + divisor / 2) / divisor);
    return minor < 0 ? -magnitude : magnitude;
  };
  const rules = rulesOf(book).map((rule): RuleInput => {
    switch (rule.phase) {
      case 'baseOverride':
        return { ...rule, priceMinor: scale(rule.priceMinor) };
      case 'scopedModifier':
      case 'conditionalModifier':
        return rule.adjustment.type === 'fixed' ? { ...rule, adjustment: { ...rule.adjustment, amountMinor: scale(rule.adjustment.amountMinor) } } : rule;
      case 'discount':
        return rule.reduction.type === 'fixed' ? { ...rule, reduction: { ...rule.reduction, amountMinor: scale(rule.reduction.amountMinor) } } : rule;
      case 'guardrail':
        return { ...rule, amountMinor: scale(rule.amountMinor) };
      case 'paymentTerms':
        return rule;
    }
  });
  const offerings = book.offerings.map((o) => ({ ...o, basePriceMinor: scale(o.basePriceMinor) }));
  return { book: { ...book, currency, offerings, rules }, rounded };
}

// --- offerings ---------------------------------------------------------------------------------

export function addOffering(book: Book, label: string): Book {
  const id = idFromLabel(label, new Set(book.offerings.map((o) => o.id)), 'offering');
  return { ...book, offerings: [...book.offerings, { id, label, basePriceMinor: 0, factorIds: [], conditions: [] }] };
}

export function replaceOffering(book: Book, index: number, offering: OfferingInput): Book {
  return { ...book, offerings: replaceAt(book.offerings, index, offering) };
}

export function moveOffering(book: Book, from: number, to: number): Book {
  return { ...book, offerings: moveItem(book.offerings, from, to) };
}

/** What refers to something the person wants to remove, and what removing it does. */
export type Removal = {
  /** Rules that could no longer apply without it: they go too. */
  rulesRemoved: RuleInput[];
  /** Rules that keep working without the reference (it is dropped from them). */
  rulesChanged: RuleInput[];
  /** Offerings that stop asking a removed factor. */
  offeringsChanged: OfferingInput[];
  /** Factors whose "not sure" answer assumed a removed option: they ask again instead. */
  factorsChanged: FactorInput[];
};

export const nothingRefers = (removal: Removal) =>
  removal.rulesRemoved.length + removal.rulesChanged.length + removal.offeringsChanged.length + removal.factorsChanged.length === 0;

/**
 * Removing an offering: a rule scoped to it and others stops naming it; a rule scoped to it
 * alone could apply to nothing any more, so it goes. With `removeEveryRule`, every rule that
 * names it goes.
 */
export function removeOffering(book: Book, offeringId: string, options: { removeEveryRule?: boolean } = {}): { book: Book; removal: Removal } {
  const removal: Removal = { rulesRemoved: [], rulesChanged: [], offeringsChanged: [], factorsChanged: [] };
  const rules = rulesOf(book).flatMap((rule): RuleInput[] => {
    if (!rule.offeringIds?.includes(offeringId)) return [rule];
    const rest = rule.offeringIds.filter((id) => id !== offeringId);
    if (rest.length === 0 || options.removeEveryRule) {
      removal.rulesRemoved.push(rule);
      return [];
    }
    removal.rulesChanged.push(rule);
    return [{ ...rule, offeringIds: rest }];
  });
  return { book: { ...book, offerings: book.offerings.filter((o) => o.id !== offeringId), rules }, removal };
}

// --- factors and options ------------------------------------------------------------------------

export function addFactor(book: Book, label: string): Book {
  const id = idFromLabel(label, new Set(factorsOf(book).map((f) => f.id)), 'question');
  const factor: FactorInput = {
    id,
    label,
    required: true,
    options: [{ id: 'option_1', label: 'Option 1' }],
    whenUnknown: { action: 'requireInput' },
  };
  return { ...book, factors: [...factorsOf(book), factor] };
}

export function replaceFactor(book: Book, index: number, factor: FactorInput): Book {
  return { ...book, factors: replaceAt(factorsOf(book), index, factor) };
}

export function moveFactor(book: Book, from: number, to: number): Book {
  return { ...book, factors: moveItem(factorsOf(book), from, to) };
}

export function addOption(factor: FactorInput, label: string): FactorInput {
  const id = idFromLabel(label, new Set(factor.options.map((o) => o.id)), 'option');
  return { ...factor, options: [...factor.options, { id, label }] };
}

/**
 * Removing a factor: offerings stop asking it. A rule with a condition on it could never apply
 * again (nobody answers it), so it goes; with `keepRulesWithoutIt` such rules keep their other
 * conditions instead (and apply more often), and a rule left without any condition goes.
 */
export function removeFactor(book: Book, factorId: string, options: { keepRulesWithoutIt?: boolean } = {}): { book: Book; removal: Removal } {
  const removal: Removal = { rulesRemoved: [], rulesChanged: [], offeringsChanged: [], factorsChanged: [] };
  const offerings = book.offerings.map((o) => {
    if (!o.factorIds?.includes(factorId)) return o;
    removal.offeringsChanged.push(o);
    return { ...o, factorIds: o.factorIds.filter((id) => id !== factorId) };
  });
  const rules = rulesOf(book).flatMap((rule): RuleInput[] => {
    if (!rule.when?.some((c) => c.factorId === factorId)) return [rule];
    const rest = rule.when.filter((c) => c.factorId !== factorId);
    if (!options.keepRulesWithoutIt || rest.length === 0) {
      removal.rulesRemoved.push(rule);
      return [];
    }
    removal.rulesChanged.push(rule);
    return [{ ...rule, when: rest }];
  });
  return { book: { ...book, offerings, factors: factorsOf(book).filter((f) => f.id !== factorId), rules }, removal };
}

/**
 * Removing an option: conditions stop accepting it; a condition that accepted only it could
 * never hold again, so its rule goes. A factor that assumed it for "not sure" asks again.
 */
export function removeOption(book: Book, factorId: string, optionId: string): { book: Book; removal: Removal } {
  const removal: Removal = { rulesRemoved: [], rulesChanged: [], offeringsChanged: [], factorsChanged: [] };
  const factors = factorsOf(book).map((f): FactorInput => {
    if (f.id !== factorId) return f;
    const assumed = f.whenUnknown?.action === 'assume' && f.whenUnknown.optionId === optionId;
    if (assumed) removal.factorsChanged.push(f);
    return { ...f, options: f.options.filter((o) => o.id !== optionId), ...(assumed ? { whenUnknown: { action: 'requireInput' as const } } : {}) };
  });
  const rules = rulesOf(book).flatMap((rule): RuleInput[] => {
    const touched = rule.when?.some((c) => c.factorId === factorId && c.optionIds.includes(optionId));
    if (!touched) return [rule];
    const when = rule.when!.map((c) => (c.factorId === factorId ? { ...c, optionIds: c.optionIds.filter((id) => id !== optionId) } : c));
    if (when.some((c) => c.optionIds.length === 0)) {
      removal.rulesRemoved.push(rule);
      return [];
    }
    removal.rulesChanged.push(rule);
    return [{ ...rule, when }];
  });
  return { book: { ...book, factors, rules }, removal };
}

// --- rules -------------------------------------------------------------------------------------

const RULE_LABELS: Record<RulePhase, string> = {
  baseOverride: 'Special base price',
  scopedModifier: 'Surcharge',
  conditionalModifier: 'Conditional surcharge',
  discount: 'Discount',
  guardrail: 'Minimum charge',
  paymentTerms: 'Deposit',
};

/** A new rule of the phase, at the end of it, with the least that makes it meaningful. */
export function addRule(book: Book, phase: RulePhase): { book: Book; index: number } {
  const rules = rulesOf(book);
  const label = RULE_LABELS[phase];
  const id = idFromLabel(label, new Set(rules.map((r) => r.id)), 'rule');
  const firstOffering = book.offerings[0]?.id;
  const rule: RuleInput = (() => {
    switch (phase) {
      case 'baseOverride':
        return { id, label, phase, priceMinor: 0 };
      case 'scopedModifier':
        return { id, label, phase, offeringIds: firstOffering ? [firstOffering] : [], adjustment: { type: 'percent', basisPoints: 1000 } };
      case 'conditionalModifier': {
        // Born whole, so the draft keeps pricing: a condition on the first question's first answer, for the person to change.
        const question = (book.factors ?? []).find((f) => f.options.length > 0);
        const when = question ? [{ factorId: question.id, optionIds: [question.options[0].id] }] : [];
        return { id, label, phase, when, adjustment: { type: 'percent', basisPoints: 1000 } } as unknown as RuleInput;
      }
      case 'discount':
        return { id, label, phase, reduction: { type: 'percent', basisPoints: 1000 } };
      case 'guardrail':
        return { id, label, phase, limit: 'minimumTotal', amountMinor: 0 };
      case 'paymentTerms':
        return { id, label, phase, depositBasisPoints: 2500 };
    }
  })();
  const lastOfPhase = rules.findLastIndex((r) => r.phase === phase);
  const index = lastOfPhase >= 0 ? lastOfPhase + 1 : rules.length;
  return { book: { ...book, rules: [...rules.slice(0, index), rule, ...rules.slice(index)] }, index };
}

export function replaceRule(book: Book, index: number, rule: RuleInput): Book {
  return { ...book, rules: replaceAt(rulesOf(book), index, rule) };
}

export function removeRule(book: Book, index: number): Book {
  return { ...book, rules: rulesOf(book).filter((_, i) => i !== index) };
}

/** A copy right after the rule, with its own id and "(copy)" in its label. */
export function duplicateRule(book: Book, index: number): Book {
  const rules = rulesOf(book);
  const rule = rules[index];
  const label = `${rule.label} (copy)`;
  const copy = { ...structuredClone(rule), id: idFromLabel(label, new Set(rules.map((r) => r.id)), 'rule'), label };
  return { ...book, rules: [...rules.slice(0, index + 1), copy, ...rules.slice(index + 1)] };
}

/** Moves a rule before the previous (-1) or after the next (+1) rule of its own phase: order matters within a phase. */
export function moveRuleWithinPhase(book: Book, index: number, direction: -1 | 1): Book {
  const rules = rulesOf(book);
  const phase = rules[index].phase;
  let other = index + direction;
  while (other >= 0 && other < rules.length && rules[other].phase !== phase) other += direction;
  if (other < 0 || other >= rules.length) return book;
  const copy = [...rules];
  [copy[index], copy[other]] = [copy[other], copy[index]];
  return { ...book, rules: copy };
}

/** Every reference in the book to an offering, factor or option that does not exist. */
export function danglingReferences(book: Book): string[] {
  const offerings = new Set(book.offerings.map((o) => o.id));
  const options = new Map(factorsOf(book).map((f) => [f.id, new Set(f.options.map((o) => o.id))]));
  const found: string[] = [];
  for (const o of book.offerings) for (const f of o.factorIds ?? []) if (!options.has(f)) found.push(`offering ${o.id} asks ${f}`);
  for (const f of factorsOf(book)) {
    if (f.whenUnknown?.action === 'assume' && !options.get(f.id)!.has(f.whenUnknown.optionId)) found.push(`factor ${f.id} assumes ${f.whenUnknown.optionId}`);
  }
  for (const r of rulesOf(book)) {
    for (const o of r.offeringIds ?? []) if (!offerings.has(o)) found.push(`rule ${r.id} is scoped to ${o}`);
    for (const c of r.when ?? []) {
      const known = options.get(c.factorId);
      if (!known) found.push(`rule ${r.id} asks about ${c.factorId}`);
      else for (const o of c.optionIds) if (!known.has(o)) found.push(`rule ${r.id} expects ${c.factorId} ${o}`);
    }
  }
  return found;
}

export type { OptionInput };
