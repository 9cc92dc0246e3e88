import type { DbOrTx } from '../db/client';
import { compiled, readDistinctRequests } from '../books/store';
import { IMPACT_WINDOWS } from '../books/impact-schemas';
import { evaluate, type CompiledBook, type QuoteInputs } from '../pricing';
import { bookLabels, changePercent, changesByMoreThan, totalOf } from '../pricing/compare';
import { formatMoney } from '../pricing/format-money';

/**
 * The start guard (docs/experiments.md, "Guardrails"): no variant may price the same answers
 * further than `maxPriceDifferencePercent` from the control. It re-prices what the book's impact
 * preview re-prices (lib/books/run-impact.ts: the distinct answers of the window's quotes, read
 * by the same query), each with the control's version and each variant's, and, when the window
 * holds too few, the book's own examples too (each offering with its first answers, then each
 * answer of each question in turn). Nothing is stored.
 */

/** How far back the guard looks. */
export const GUARD_WINDOW = '30d' as const;
/** Below this many distinct recent answer sets, the book's examples are priced as well. */
export const MIN_RECENT_REQUESTS = 20;
/** At most this many examples per offering. */
const MAX_EXAMPLES_PER_OFFERING = 200;
const BATCH = 2_000;

export type PriceDifference = {
  arm: string;
  versionId: string;
  offeringId: string;
  offering: string;
  /** The answers, worded with the book's labels. */
  answers: { factorId: string; factor: string; optionId: string | null; option: string | null }[];
  controlPriceMinor: number;
  variantPriceMinor: number;
  currency: string;
  /** Variant against control, in percent (rounded to 0.01); null for a price from 0. */
  differencePercent: number | null;
  /** Where the answers came from: a recent quote, or the book's examples. */
  source: 'recent_quotes' | 'book_examples';
  /** The guard's limit, in whole percent. */
  limitPercent: number;
  /** The same in plain words. */
  message: string;
};

export type PriceGuardInput = {
  bookId: string;
  environmentId: string;
  controlVersionId: string;
  variants: readonly { name: string; versionId: string }[];
  /** null: every offering. */
  offeringIds: readonly string[] | null;
  limitPercent: number;
  now: Date;
};

/** The largest price difference beyond the limit over the variants, or null when every variant is within it. */
export async function worstPriceDifference(db: DbOrTx, input: PriceGuardInput): Promise<PriceDifference | null> {
  const control = await compiled(db, input.controlVersionId);
  const variants = await Promise.all(input.variants.map(async (v) => ({ ...v, book: await compiled(db, v.versionId) })));
  const takesPart = (offeringId: string) => input.offeringIds === null || input.offeringIds.includes(offeringId);
  type Found = Omit<PriceDifference, 'offering' | 'answers' | 'message' | 'currency' | 'limitPercent'> & { inputs: QuoteInputs };
  const worst: { found: Found | null } = { found: null };
  const seen = new Set<string>();

  const consider = (inputs: QuoteInputs, source: PriceDifference['source']) => {
    if (!takesPart(inputs.offeringId)) return;
    const before = totalOf(evaluate(control, inputs));
    if (before === null) return; // the control does not price these answers: no difference to bound
    for (const variant of variants) {
      const after = totalOf(evaluate(variant.book, inputs));
      if (after === null || !changesByMoreThan(before, after, input.limitPercent)) continue;
      const percent = changePercent(before, after);
      if (worst.found === null || isLarger(percent, worst.found.differencePercent)) {
        worst.found = { arm: variant.name, versionId: variant.versionId, offeringId: inputs.offeringId, inputs, controlPriceMinor: before, variantPriceMinor: after, differencePercent: percent, source };
      }
    }
  };

  const window = { bookId: input.bookId, environmentId: input.environmentId, from: new Date(input.now.getTime() - IMPACT_WINDOWS[GUARD_WINDOW]), to: input.now, offeringId: null };
  await readDistinctRequests(db, window, BATCH, async (rows) => {
    for (const row of rows) {
      const key = JSON.stringify([row.inputs.offeringId, Object.entries(row.inputs.factors).sort()]);
      if (seen.has(key) || !takesPart(row.inputs.offeringId)) continue;
      seen.add(key);
      consider(row.inputs, 'recent_quotes');
    }
  });
  if (seen.size < MIN_RECENT_REQUESTS) for (const inputs of bookExamples(control)) consider(inputs, 'book_examples');

  const found = worst.found;
  if (found === null) return null;
  const labels = bookLabels([control, ...variants.map((v) => v.book)]);
  const currency = control.artifact.currency;
  const answers = Object.keys(found.inputs.factors)
    .sort()
    .map((factorId) => {
      const optionId = found.inputs.factors[factorId] ?? null;
      return { factorId, factor: labels.factor(factorId), optionId, option: optionId === null ? null : labels.option(factorId, optionId) };
    });
  const { inputs: _inputs, ...rest } = found;
  const offering = labels.offering(found.offeringId);
  const worded = answers.map((a) => `${a.factor}: ${a.option ?? 'unknown'}`).join(', ');
  const by = found.differencePercent === null ? 'from nothing' : `${Math.abs(found.differencePercent)}% ${found.differencePercent > 0 ? 'more' : 'less'}`;
  const message =
    `${found.arm} prices ${offering}${worded ? ` (${worded})` : ''} at ${formatMoney(found.variantPriceMinor, currency)} where the control asks ` +
    `${formatMoney(found.controlPriceMinor, currency)}: ${by}, beyond the ${input.limitPercent}% the experiment allows.`;
  return { ...rest, offering, answers, currency, limitPercent: input.limitPercent, message };
}

/** A larger relative change: a rise from 0 (null) is the largest. */
function isLarger(percent: number | null, than: number | null): boolean {
  if (than === null) return false;
  if (percent === null) return true;
  return Math.abs(percent) > Math.abs(than);
}

/**
 * The book's own examples: for each offering, its questions answered with their first options,
 * then each option of each question in turn (the others kept at their first). Deterministic.
 */
export function bookExamples(book: CompiledBook): QuoteInputs[] {
  const examples: QuoteInputs[] = [];
  const options = new Map(book.artifact.factors.map((f) => [f.id, f.options.map((o) => o.id)]));
  for (const offering of book.artifact.offerings) {
    const first: Record<string, string | null> = {};
    for (const factorId of offering.factorIds) first[factorId] = options.get(factorId)?.[0] ?? null;
    const ofOffering: QuoteInputs[] = [{ offeringId: offering.id, factors: first }];
    for (const factorId of offering.factorIds) {
      for (const optionId of (options.get(factorId) ?? []).slice(1)) ofOffering.push({ offeringId: offering.id, factors: { ...first, [factorId]: optionId } });
    }
    examples.push(...ofOffering.slice(0, MAX_EXAMPLES_PER_OFFERING));
  }
  return examples;
}
