import { diffArtifacts, isUnchanged, type ArtifactDiff } from '../books/artifact-diff';
import { PHASES } from '../pricing/phases';
import { bookLabels, ruleDifferences, stepKey, stepLabel, type BookLabels, type RuleDifference, type RuleStep } from '../pricing/compare';
import type { CompiledBook, QuoteComputation, QuoteInputs } from '../pricing/evaluate';
import { formatMoney, signedMoney } from '../pricing/format-money';
import type { ComparedQuote, QuoteComparison } from './comparison-schemas';

/**
 * Why two quotes differ, as a person would say it: the answers that differ, the book versions
 * and what changed between them, and the steps that priced differently, whose changes add up to
 * exactly totalB - totalA (every derivation's deltas add up to its total). Pure: the verb
 * (compare-quotes.ts) reads the quotes and their compiled versions, this explains them.
 */

/** One stored quote with the compiled book version it was priced with. */
export type QuoteSide = {
  quoteIntentId: string;
  createdAt: string;
  environment: ComparedQuote['environment'];
  source: ComparedQuote['source'];
  status: ComparedQuote['status'];
  bookId: string;
  inputs: QuoteInputs;
  /** The pinned version; null when nothing was published when the quote was made. */
  version: { id: string; number: number; book: CompiledBook } | null;
  receipt: {
    outcome: ComparedQuote['outcome'];
    computation: QuoteComputation | null;
    missingInputs: string[];
    failure: ComparedQuote['failure'];
  };
};

type Priced = { computation: QuoteComputation; book: CompiledBook };
type Side = 'A' | 'B';

export function explainDifference(businessId: string, a: QuoteSide, b: QuoteSide): QuoteComparison {
  const labels = bookLabels([b.version?.book, a.version?.book].filter((book) => book !== undefined));
  const pricedA = pricedOf(a);
  const pricedB = pricedOf(b);
  const notReconciled =
    !pricedA && !pricedB
      ? 'neither_priced'
      : !pricedA
        ? 'a_not_priced'
        : !pricedB
          ? 'b_not_priced'
          : pricedA.computation.currency !== pricedB.computation.currency
            ? 'currencies_differ'
            : null;
  const differences =
    notReconciled === null ? ruleDifferences(pricedA!.book, pricedA!.computation.derivation, pricedB!.book, pricedB!.computation.derivation) : [];
  const differing = new Set(differences.map(stepKey));
  const currency = pricedB?.computation.currency ?? pricedA?.computation.currency ?? 'USD';
  const words = new Words(currency, labels.offering(a.inputs.offeringId), labels.offering(b.inputs.offeringId));

  const answers = answerDifferences(a, b, labels);
  const sameVersion = (a.version?.id ?? null) === (b.version?.id ?? null);
  const changes = !sameVersion && a.version && b.version ? diffArtifacts(a.version.book.artifact, b.version.book.artifact) : null;
  const phases = PHASES.map((phase) => ({
    phase,
    steps: differences
      .filter((d) => d.phase === phase)
      .map((d) => ({ ruleId: d.ruleId, label: d.label, a: d.before, b: d.after, deltaChangeMinor: d.deltaChangeMinor, sentence: words.step(d) })),
  })).filter((p) => p.steps.length > 0);
  const reconciliation =
    notReconciled === null
      ? {
          currency,
          totalAMinor: pricedA!.computation.totalMinor,
          totalBMinor: pricedB!.computation.totalMinor,
          differenceMinor: pricedB!.computation.totalMinor - pricedA!.computation.totalMinor,
          explainedMinor: differences.reduce((sum, d) => sum + d.deltaChangeMinor, 0),
        }
      : null;

  return {
    businessId,
    a: comparedQuote(a, pricedA, labels, differing),
    b: comparedQuote(b, pricedB, labels, differing),
    answers,
    bookVersion: { same: sameVersion, sameBook: a.bookId === b.bookId, changes },
    phases,
    reconciliation,
    notReconciled,
    summary: [
      ...words.prices(a, b, pricedA, pricedB, labels),
      words.answers(answers),
      ...words.versions(a, b, changes),
      ...(reconciliation ? [words.explained(differences.length, reconciliation.differenceMinor)] : []),
    ],
  };
}

function pricedOf(side: QuoteSide): Priced | null {
  const { computation } = side.receipt;
  return side.receipt.outcome === 'succeeded' && computation && side.version ? { computation, book: side.version.book } : null;
}

function comparedQuote(side: QuoteSide, priced: Priced | null, labels: BookLabels, differing: ReadonlySet<string>): ComparedQuote {
  const computation = side.receipt.computation;
  return {
    quoteIntentId: side.quoteIntentId,
    createdAt: side.createdAt,
    environment: side.environment,
    source: side.source,
    status: side.status,
    outcome: side.receipt.outcome,
    offeringId: side.inputs.offeringId,
    offeringLabel: offeringName(labels, side.inputs.offeringId),
    bookVersion: side.version && { id: side.version.id, number: side.version.number },
    totalMinor: computation?.totalMinor ?? null,
    currency: computation?.currency ?? null,
    missingInputs: side.receipt.missingInputs,
    failure: side.receipt.failure,
    derivation: priced
      ? priced.computation.derivation.map((step) => ({
          sequence: step.sequence,
          phase: step.phase,
          ruleId: step.ruleId,
          ruleType: step.ruleType,
          status: step.status,
          reason: step.reason,
          deltaMinor: step.deltaMinor,
          runningTotalMinor: step.runningTotalMinor,
          label: stepLabel(priced.book, step),
          differs: differing.has(stepKey(step)),
        }))
      : [],
  };
}

const offeringName = (labels: BookLabels, offeringId: string) => (offeringId === '' ? 'no offering given' : labels.offering(offeringId));

/** The offering (when it differs), then each answer that differs, in the order B's and then A's offering ask them. */
function answerDifferences(a: QuoteSide, b: QuoteSide, labels: BookLabels): QuoteComparison['answers'] {
  const differences: QuoteComparison['answers'] = [];
  if (a.inputs.offeringId !== b.inputs.offeringId) {
    const offering = (side: QuoteSide) => ({ id: side.inputs.offeringId, label: offeringName(labels, side.inputs.offeringId) });
    differences.push({ factorId: null, label: 'Offering', a: offering(a), b: offering(b) });
  }
  const asked = (side: QuoteSide) => side.version?.book.offerings.get(side.inputs.offeringId)?.factorIds ?? [];
  const given = [...Object.keys(b.inputs.factors), ...Object.keys(a.inputs.factors)].sort();
  for (const factorId of new Set([...asked(b), ...asked(a), ...given])) {
    const answerA = a.inputs.factors[factorId];
    const answerB = b.inputs.factors[factorId];
    if (answerA === answerB) continue;
    const value = (answer: string | null | undefined) =>
      answer === undefined ? null : answer === null ? { id: null, label: 'not sure' } : { id: answer, label: labels.option(factorId, answer) };
    differences.push({ factorId, label: labels.factor(factorId), a: value(answerA), b: value(answerB) });
  }
  return differences;
}

/** The sentences, in one currency (B's, else A's). */
class Words {
  constructor(
    private readonly currency: string,
    private readonly offeringA: string,
    private readonly offeringB: string,
  ) {}

  private money(amountMinor: number) {
    return formatMoney(amountMinor, this.currency);
  }

  private signed(amountMinor: number) {
    return signedMoney(amountMinor, this.currency);
  }

  prices(a: QuoteSide, b: QuoteSide, pricedA: Priced | null, pricedB: Priced | null, labels: BookLabels): string[] {
    if (pricedA && pricedB) {
      const [totalA, totalB] = [pricedA.computation.totalMinor, pricedB.computation.totalMinor];
      const [currencyA, currencyB] = [pricedA.computation.currency, pricedB.computation.currency];
      if (currencyA !== currencyB) {
        return [`A is priced in ${currencyA} and B in ${currencyB}: the two prices cannot be set against each other, so no step is explained.`];
      }
      if (totalA === totalB) return [`A and B both come to ${this.money(totalA)}.`];
      const more = totalB > totalA;
      return [`B comes to ${this.money(totalB)}, ${this.money(Math.abs(totalB - totalA))} ${more ? 'more' : 'less'} than A (${this.money(totalA)}).`];
    }
    const sentences = [a, b].flatMap((side, i) => {
      if ((i === 0 ? pricedA : pricedB) !== null) return [];
      return [unpriced(i === 0 ? 'A' : 'B', side, labels)];
    });
    const only = pricedA ? 'only A was' : pricedB ? 'only B was' : 'neither was';
    return [...sentences, `There is no price difference to explain: ${only} priced.`];
  }

  answers(answers: QuoteComparison['answers']): string {
    if (answers.length === 0) return 'A and B have the same offering and the same answers.';
    const offering = answers.find((answer) => answer.factorId === null);
    const factors = answers.filter((answer) => answer.factorId !== null);
    const parts: string[] = [];
    if (offering) parts.push(`A is for ${offering.a!.label} and B for ${offering.b!.label}`);
    if (factors.length > 0) {
      const shown = factors.slice(0, 4).map((f) => `${f.label} (${answerWords(f.a)} → ${answerWords(f.b)})`);
      if (factors.length > 4) shown.push(`${factors.length - 4} more`);
      parts.push(`${factors.length === 1 ? '1 answer differs' : `${factors.length} answers differ`}: ${list(shown)}`);
    }
    return `${parts.join('; ')}.`;
  }

  versions(a: QuoteSide, b: QuoteSide, changes: ArtifactDiff | null): string[] {
    if (!a.version || !b.version) {
      if (!a.version && !b.version) return ['Neither quote had a published book version to price with.'];
      return [`${!a.version ? 'A' : 'B'} had no published book version to price with.`];
    }
    const book = a.bookId === b.bookId ? 'the book' : 'its book';
    if (a.version.id === b.version.id) return [`Both were priced with version ${a.version.number} of the book.`];
    const prefix = `A was priced with version ${a.version.number} of ${book} and B with version ${b.version.number}${a.bookId === b.bookId ? '' : ' of another book'}`;
    return [`${prefix}: ${changes && !isUnchanged(changes) ? describeChanges(changes) : 'the two price the same way'}.`];
  }

  explained(steps: number, differenceMinor: number): string {
    if (steps === 0) return 'Every step priced the same way.';
    const count = steps === 1 ? '1 step' : `${steps} steps`;
    if (differenceMinor === 0) return `${count} priced differently, and the changes cancel out.`;
    return `${count} priced differently; together they explain the whole difference of ${this.signed(differenceMinor)}.`;
  }

  /** One step that priced differently, B against A. */
  step(d: RuleDifference): string {
    const total = d.deltaChangeMinor === 0 ? ' It does not change the total.' : ` Difference: ${this.signed(d.deltaChangeMinor)}.`;
    if (d.ruleType === 'offeringBase') {
      const [baseA, baseB] = [d.before!.deltaMinor, d.after!.deltaMinor];
      if (this.offeringA !== this.offeringB) {
        return `The base price is ${this.money(baseA)} for ${this.offeringA} (A) and ${this.money(baseB)} for ${this.offeringB} (B).${total}`;
      }
      return `The base price of ${this.offeringB} is ${this.money(baseA)} in A and ${this.money(baseB)} in B.${total}`;
    }
    if (d.ruleType === 'fullBalance') {
      return `No deposit rule applied to ${d.after ? 'B' : 'A'}: its whole total is due as the balance.${total}`;
    }
    const label = `“${d.label}”`;
    const amount = (step: RuleStep) => (step.deltaMinor === 0 ? '' : ` (${this.signed(step.deltaMinor)})`);
    const only = (side: Side, step: RuleStep) =>
      step.status === 'applied' ? `it applied to ${side}${amount(step)}` : `it did not apply to ${side}`;
    if (!d.before) return `${label} is new in B’s book version; ${only('B', d.after!)}.${total}`;
    if (!d.after) return `${label} is not in B’s book version; ${only('A', d.before)}.${total}`;
    if (d.before.status === 'applied' && d.after.status !== 'applied') return `${label} applied to A${amount(d.before)} but not to B.${total}`;
    if (d.after.status === 'applied' && d.before.status !== 'applied') return `${label} applied to B${amount(d.after)} but not to A.${total}`;
    return `${label} came to ${this.signed(d.before.deltaMinor)} for A and ${this.signed(d.after.deltaMinor)} for B.${total}`;
  }
}

function unpriced(side: Side, quote: QuoteSide, labels: BookLabels): string {
  const { outcome, missingInputs, failure } = quote.receipt;
  if (outcome === 'requires_input') {
    const missing = missingInputs.map((path) =>
      path === 'offeringId' ? 'which offering is wanted' : path.startsWith('factors.') ? labels.factor(path.slice('factors.'.length)) : path,
    );
    return `${side} was not priced: it still needs ${missing.length === 0 ? 'more answers' : `an answer to ${list(missing)}`}.`;
  }
  const reason = failure?.message.replace(/\.?$/, '.') ?? 'the service gave no reason.';
  return `${side} could not be priced: ${reason}`;
}

function answerWords(value: QuoteComparison['answers'][number]['a']): string {
  return value === null ? 'no answer' : value.id === null ? value.label : `“${value.label}”`;
}

/** "rule “Weekend surcharge” added, rules “Larger home” and “Difficult access” changed and 1 offering changed". */
function describeChanges(diff: ArtifactDiff): string {
  const groups = new Map<string, string[]>();
  for (const entity of diff.entities) {
    const key = `${entity.kind}:${entity.change}`;
    groups.set(key, [...(groups.get(key) ?? []), entity.label]);
  }
  const parts = [...groups].map(([key, labels]) => {
    const [kind, change] = key.split(':');
    const noun = `${kind}${labels.length === 1 ? '' : 's'}`;
    // Rules are what a price moves by: name a few; count the rest.
    if (kind === 'rule' && labels.length <= 3) return `${noun} ${list(labels.map((l) => `“${l}”`))} ${change}`;
    return `${labels.length} ${noun} ${change}`;
  });
  if (diff.settings.length > 0) parts.push(`book settings changed (${diff.settings.map((s) => s.field).join(', ')})`);
  const conditions = diff.conditions.added.length + diff.conditions.removed.length;
  if (conditions > 0) parts.push(`${conditions} condition${conditions === 1 ? '' : 's'} added or removed`);
  if (diff.ruleOrderChanged) parts.push('rules reordered');
  return list(parts);
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
