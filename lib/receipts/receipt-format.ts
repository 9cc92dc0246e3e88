/**
 * What a receipt carries is versioned: each format lists its fields, and a receipt is shown in
 * the format it was written (and signed) in, whatever later formats add. A field added to the
 * receipt tomorrow is a new format; receipts signed today keep verifying, by anyone, because
 * they are still shown exactly as they were signed (docs/receipts.md, "Formats").
 *
 * To add a field: add the next format with every field of the last plus the new one (sorted:
 * the canonical order, docs/receipts.md), make it CURRENT_RECEIPT_FORMAT, and fill the field in
 * lib/quotes/quote-views.ts. receipt-format.test.ts holds the view to the current format.
 */
export const RECEIPT_FORMATS = {
  1: [
    'bookVersionId',
    'computation',
    'createdAt',
    'failure',
    'id',
    'idempotencyKey',
    'latencyMs',
    'missingInputs',
    'outcome',
    'quoteIntentId',
    'requestCorrelationId',
    'source',
  ],
  /** Adds `experiment`: the arm of a running experiment the quote was priced with (docs/experiments.md). */
  2: [
    'bookVersionId',
    'computation',
    'createdAt',
    'experiment',
    'failure',
    'id',
    'idempotencyKey',
    'latencyMs',
    'missingInputs',
    'outcome',
    'quoteIntentId',
    'requestCorrelationId',
    'source',
  ],
} as const satisfies Record<number, readonly string[]>;

export type ReceiptFormat = keyof typeof RECEIPT_FORMATS;

/** The format new receipts are written in. */
export const CURRENT_RECEIPT_FORMAT: ReceiptFormat = 2;

/**
 * The receipt as its format shows it: only that format's fields, in their order, and the
 * signature. `formats` is the registry (tests give a later one).
 */
export function inReceiptFormat<T extends Record<string, unknown>>(
  view: T,
  format: number,
  formats: Record<number, readonly string[]> = RECEIPT_FORMATS,
): T {
  const fields = formats[format];
  if (!fields) throw new Error(`receipt format ${format} is unknown`);
  const shown: Record<string, unknown> = {};
  for (const field of fields) shown[field] = view[field];
  if ('signature' in view) shown.signature = view.signature;
  return shown as T;
}
