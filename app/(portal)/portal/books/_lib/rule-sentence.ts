// A rule as a sentence a person reads: "Add 25% to Window cleaning when Home size is 3 to 4
// bedrooms". Labels, never ids; amounts in the book's currency. Works on unfinished drafts too:
// what a rule refers to but the book lacks is named as missing.
import { formatMoney } from '@/app/_components/receipt-view';
import type { Book } from './book-edits';
import { basisPointsToText } from './amount-text';
import type { RuleInput } from './book-form';

export type Labels = {
  offering: (id: string) => string;
  factor: (id: string) => string;
  option: (factorId: string, optionId: string) => string;
};

/** Labels of the book's offerings, factors and options, by id. */
export function labelsOf(book: Book): Labels {
  const offerings = new Map(book.offerings.map((o) => [o.id, o.label]));
  const factors = new Map((book.factors ?? []).map((f) => [f.id, { label: f.label, options: new Map(f.options.map((o) => [o.id, o.label])) }]));
  return {
    offering: (id) => offerings.get(id) ?? `missing offering “${id}”`,
    factor: (id) => factors.get(id)?.label ?? `missing question “${id}”`,
    option: (factorId, optionId) => factors.get(factorId)?.options.get(optionId) ?? `missing answer “${optionId}”`,
  };
}

/** "A, B or C" / "A, B and C". */
function listOf(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

const percent = (basisPoints: number) => `${basisPointsToText(basisPoints)}%`;

function money(amountMinor: number, currency: string): string {
  try {
    return formatMoney(amountMinor, currency);
  } catch {
    return `${amountMinor} (minor units)`;
  }
}

/** "when Home size is 3 to 4 bedrooms or 5 bedrooms or more and Storeys is Two storeys", or "". */
function conditionsSentence(rule: Pick<RuleInput, 'when'>, labels: Labels): string {
  const when = rule.when ?? [];
  if (when.length === 0) return '';
  const clauses = when.map((c) => `${labels.factor(c.factorId)} is ${listOf(c.optionIds.map((o) => labels.option(c.factorId, o)), 'or')}`);
  return ` when ${clauses.join(' and ')}`;
}

export function scopeWords(rule: Pick<RuleInput, 'offeringIds'>, labels: Labels): string {
  return rule.offeringIds ? listOf(rule.offeringIds.map(labels.offering), 'and') || 'no offering' : 'every offering';
}

export function ruleSentence(rule: RuleInput, book: Book, labels: Labels = labelsOf(book)): string {
  const scope = scopeWords(rule, labels);
  const when = conditionsSentence(rule, labels);
  const currency = book.currency;
  switch (rule.phase) {
    case 'baseOverride':
      return `Set the base price of ${scope} to ${money(rule.priceMinor, currency)}${when}`;
    case 'scopedModifier':
    case 'conditionalModifier': {
      const { adjustment } = rule;
      const amount = adjustment.type === 'fixed' ? money(Math.abs(adjustment.amountMinor), currency) : percent(Math.abs(adjustment.basisPoints));
      const negative = (adjustment.type === 'fixed' ? adjustment.amountMinor : adjustment.basisPoints) < 0;
      return negative ? `Take ${amount} off ${scope}${when}` : `Add ${amount} to ${scope}${when}`;
    }
    case 'discount': {
      const amount = rule.reduction.type === 'fixed' ? money(rule.reduction.amountMinor, currency) : percent(rule.reduction.basisPoints);
      return `Take ${amount} off ${scope}${when}`;
    }
    case 'guardrail':
      return `Charge ${rule.limit === 'minimumTotal' ? 'at least' : 'at most'} ${money(rule.amountMinor, currency)} for ${scope}${when}`;
    case 'paymentTerms':
      return `Ask for a ${percent(rule.depositBasisPoints)} deposit on ${scope}${when}`;
  }
}
