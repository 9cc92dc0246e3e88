import type { BookArtifact, Offering } from './book-artifact';
import { compileFactors } from './compile-factors';
import { compilePlan } from './compile-plan';
import type { FailureCode, Outcome, QuoteInputs } from './outcome';
import type { CompiledBook, Notes } from './plan';
import { priceRow } from './price-row';
import { RECEIPT_WORDING, type Wording } from './wording';

/**
 * The pricing engine. Pure and deterministic: no I/O, no clock, no randomness. The same
 * compiled book and inputs always give the same outcome, to the last minor unit.
 *
 * compileBook turns a book into a plan of flat tables (plan.ts; built by compile-plan.ts),
 * once per book. evaluate turns answers into an answer row and prices it (price-row.ts: each
 * phase's rules applied by the phase's step, phase-steps.ts, or skipped with a reason,
 * rule-reasons.ts).
 */

export type { DerivationEntry, FailureCode, InspectionNeed, LineItem, Outcome, QuoteComputation, QuoteInputs } from './outcome';
export type { CompiledBook } from './plan';
export { RECEIPT_WORDING, type Wording } from './wording';

const compiledCache = new WeakMap<BookArtifact, CompiledBook>();

export function compileBook(artifact: BookArtifact, wording: Wording = RECEIPT_WORDING): CompiledBook {
  // Receipts' compilations are kept; another wording (a view's) is compiled afresh each time.
  const cached = wording === RECEIPT_WORDING ? compiledCache.get(artifact) : undefined;
  if (cached) return cached;
  const factors = compileFactors(artifact);
  const compiled: CompiledBook = {
    artifact,
    offerings: new Map(artifact.offerings.map((o) => [o.id, o])),
    factors,
    plan: compilePlan(artifact, factors, wording),
  };
  if (wording === RECEIPT_WORDING) compiledCache.set(artifact, compiled);
  return compiled;
}

/** Answers of the offering's factors, after the unknown-answer policy; or what is missing. */
export type ResolvedAnswers = { answers: Map<string, string>; notes: Map<string, string>; missing: string[] };

/**
 * The first answer, in sorted factor order, that names a factor or an option the book does not
 * have; null when there is none. Null (unknown) answers are fine here. `noun` is what the caller's
 * clients call a factor (the account surface says "selection").
 */
export function answerFailure(
  book: CompiledBook,
  factors: QuoteInputs['factors'],
  noun: 'factor' | 'selection' = 'factor',
): { code: FailureCode; message: string } | null {
  for (const factorId of Object.keys(factors).sort()) {
    const compiled = book.factors.get(factorId);
    if (!compiled) return { code: 'unknown_factor', message: `${noun === 'factor' ? 'Factor' : 'Selection'} "${factorId}" is not in this book.` };
    const value = factors[factorId];
    if (value !== null && value !== undefined && !compiled.options.has(value)) {
      return { code: 'unknown_factor_option', message: `"${value}" is not an option of ${noun} "${factorId}".` };
    }
  }
  return null;
}

/**
 * Evaluates one offering with its answers. Every rule leaves one derivation entry.
 * Failures are checked before missing inputs; answers to factors the offering does not ask
 * are ignored.
 */
export function evaluate(book: CompiledBook, inputs: QuoteInputs): Outcome {
  if (inputs.offeringId === '') return { outcome: 'requires_input', missingInputs: ['offeringId'] };
  const plan = book.plan;
  const offeringIndex = plan.offeringIndex.get(inputs.offeringId);
  if (offeringIndex === undefined) {
    return {
      outcome: 'failed',
      failure: { code: 'unknown_offering', message: `Offering "${inputs.offeringId}" is not in this book.` },
    };
  }
  const given = inputs.factors;
  const asked = plan.asked[offeringIndex];
  // The answer row: by factor index, the option number of the answer (0 = unanswered); answers
  // to factors the offering does not ask stay 0.
  const row = new Uint16Array(plan.factorIds.length);
  for (const factorId of Object.keys(given)) {
    const index = plan.factorIndex.get(factorId);
    const value = given[factorId];
    const number = index === undefined || value === null || value === undefined ? 0 : plan.optionNumbers[index].get(value);
    if (index === undefined || number === undefined) {
      // Reported in sorted order, so that it does not depend on the order of JSON keys.
      return { outcome: 'failed', failure: answerFailure(book, given)! };
    }
    if (asked[index] === 1) row[index] = number;
  }
  let notes: Notes = null;
  let missing: string[] | null = null;
  // An unknown answer takes the option the factor assumes, if any; else a required factor is missing.
  for (const index of plan.offeringFactors[offeringIndex]) {
    if (row[index] !== 0) continue;
    if (given[plan.factorIds[index]] === null && plan.assumed[index] !== 0) {
      row[index] = plan.assumed[index];
      (notes ??= [])[index] = plan.assumedNote[index];
    } else if (plan.required[index] === 1) {
      (missing ??= []).push(plan.missingInput[index]);
    }
  }
  if (missing !== null) return { outcome: 'requires_input', missingInputs: missing };
  return priceRow(book, offeringIndex, row, notes, true);
}

/** Runs the phases for fully resolved answers. Exported for range evaluation over unknowns. */
export function price(book: CompiledBook, offering: Offering, resolved: ResolvedAnswers): Outcome {
  const plan = book.plan;
  const row = new Uint16Array(plan.factorIds.length);
  for (const [factorId, optionId] of resolved.answers) {
    const factor = book.factors.get(factorId)!;
    row[factor.index] = factor.optionNumbers.get(optionId)!;
  }
  let notes: Notes = null;
  // Wordings are memoised for the notes evaluate() makes; any other note is worded every time.
  let memoise = true;
  for (const [factorId, note] of resolved.notes) {
    const index = plan.factorIndex.get(factorId);
    if (index === undefined) continue;
    (notes ??= [])[index] = note;
    if (note !== plan.assumedNote[index] || row[index] !== plan.assumed[index]) memoise = false;
  }
  return priceRow(book, plan.offeringIndex.get(offering.id)!, row, notes, memoise);
}
