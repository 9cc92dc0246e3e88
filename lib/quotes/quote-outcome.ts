import { evaluate, type CompiledBook, type Outcome, type QuoteInputs } from '../pricing';
import type { QuoteReceiptView } from './schemas';

/**
 * What a quote's receipt says about its price, from the engine's outcome. Pure: creating a quote
 * and recomputing it later (lib/receipts/) both pass here, so that they cannot disagree by design.
 */

/** The engine's outcome, or the receipt-level failure of having nothing published. */
export type QuoteOutcome = Outcome | { outcome: 'failed'; failure: { code: 'no_published_version'; message: string } };

/** Prices inputs against the pinned book version, or fails when nothing was published (null). */
export function priceQuote(book: CompiledBook | null, inputs: QuoteInputs): QuoteOutcome {
  return book
    ? evaluate(book, inputs)
    : { outcome: 'failed', failure: { code: 'no_published_version', message: 'No book version is published in this environment.' } };
}

/** The fields of a receipt that carry its price: what a recomputation must reproduce exactly. */
export type PricedFields = Pick<QuoteReceiptView, 'outcome' | 'computation' | 'missingInputs' | 'failure'>;

export function pricedFields(outcome: QuoteOutcome): PricedFields {
  return {
    outcome: outcome.outcome,
    computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
    missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
    failure: outcome.outcome === 'failed' ? outcome.failure : null,
  };
}
