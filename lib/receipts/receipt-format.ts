import type { z } from 'zod';

/**
 * What a receipt carries is versioned: each format lists its fields, and a receipt is shown in
 * the format it was written (and signed) in, whatever later formats add. A field added to the
 * receipt tomorrow is a new format; receipts signed today keep verifying, by anyone, because
 * they are still shown exactly as they were signed (docs/receipts.md, "Formats").
 *
 * To add a field: docs/receipts.md, "Adding a receipt field" (the next format with every field of
 * the last plus the new one, sorted: the canonical order; its schema in lib/quotes/schemas.ts; an
 * example of it in test/api/receipt-formats.integration.test.ts).
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

/** A field some format carries; those of the first format are in every one (formats only add). */
export type ReceiptField = (typeof RECEIPT_FORMATS)[ReceiptFormat][number];
type FieldOfEveryFormat = (typeof RECEIPT_FORMATS)[1][number];

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

/**
 * A response schema's shape for receipts of every format, from each field's schema: a field that
 * some format lacks is optional (absent from the receipts of that format), so an old receipt,
 * shown without the fields added since, passes the response schema instead of answering 500.
 * `formats` is the registry (tests give a later one).
 */
export function receiptShapeOfEveryFormat<S extends { [F in ReceiptField]: z.ZodType }>(
  fields: S,
  formats: Record<number, readonly string[]> = RECEIPT_FORMATS,
): { [K in keyof S]: K extends FieldOfEveryFormat ? S[K] : z.ZodOptional<S[K] & z.ZodType> } {
  const inEvery = (field: string) => Object.values(formats).every((fields) => fields.includes(field));
  return Object.fromEntries(Object.entries(fields).map(([field, schema]) => [field, inEvery(field) ? schema : schema.optional()])) as never;
}
