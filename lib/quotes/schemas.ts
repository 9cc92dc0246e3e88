import { z } from 'zod';
import { timeIdCursorSchema } from '../db/cursors';
import { quoteComputationSchema } from '../pricing/computation-schema';
import { receiptShapeOfEveryFormat } from '../receipts/receipt-format';
import { receiptSignatureSchema } from '../receipts/schemas';

// Requests (spec 4.1). Unknown fields are refused everywhere, as Stripe does.

const offeringId = z.string().max(80);
const factors = z
  .record(z.string().min(1).max(80), z.string().max(200).nullable())
  .refine((value) => Object.keys(value).length <= 200, 'at most 200 factors')
  .default({})
  .meta({ description: 'factor id -> option id; `null` means answered as unknown.' });
const idempotencyKey = z.string().min(8).max(120);

/** Spec 4.4.4: quote routes take the key as the `Idempotency-Key` header too, as every write does. */
export const quoteIdempotencyHeaders = z.object({
  'idempotency-key': idempotencyKey
    .optional()
    .meta({ description: 'The same as the body field `idempotencyKey` (8-120 characters); when both are sent they must be equal.' }),
});

/** `Quote-Subject`: who is priced, for experiments (the API's and the account surface's quotes). */
export const quoteSubjectHeader = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .meta({
    description:
      'Who is being priced, as an opaque id of yours (not an email): while an experiment runs on the book, the same subject is always priced with the same arm. ' +
      'Only its sha256 is kept, in the receipt. Without it the idempotency key is the subject (docs/experiments.md).',
  });

export const publicQuoteRequestSchema = z
  .strictObject({
    businessId: z.uuid(),
    offeringId,
    factors,
    idempotencyKey: idempotencyKey.optional(),
  })
  .meta({ id: 'PublicQuoteRequest' });

export const apiQuoteRequestSchema = z
  .strictObject({
    businessId: z.uuid(),
    bookId: z.uuid(),
    offeringId,
    factors,
    idempotencyKey: idempotencyKey.optional(),
  })
  .meta({ id: 'ApiQuoteRequest' });

export const memberQuoteRequestSchema = z
  .strictObject({
    bookId: z.uuid(),
    offeringId,
    factors,
    idempotencyKey: idempotencyKey.optional(),
  })
  .meta({ id: 'MemberQuoteRequest' });

// Responses (spec 2.2 - 2.4).

export const quoteIntentStatusSchema = z.enum(['created', 'requires_input', 'processing', 'succeeded', 'failed', 'expired']);
const quoteSourceSchema = z.enum(['hosted', 'api']);

export const quoteIntentSchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    projectId: z.uuid(),
    environmentId: z.uuid(),
    bookId: z.uuid(),
    bookVersionId: z.uuid().nullable(),
    status: quoteIntentStatusSchema,
    source: quoteSourceSchema,
    idempotencyKey: z.string(),
    requestCorrelationId: z.string(),
    inputs: z.object({ offeringId: z.string(), factors: z.record(z.string(), z.string().nullable()) }),
    expiresAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'QuoteIntent' });

/** Receipt format 2: the experiment arm a quote was priced with. */
export const receiptExperimentSchema = z
  .object({
    arm: z.string().meta({ description: '`control` or `variant_<n>`, as the experiment’s definition names its arms.' }),
    bucket: z.number().int().min(0).max(9999).meta({ description: 'The subject’s bucket, 0–9999 (docs/experiments.md).' }),
    experimentId: z.uuid(),
    subjectDigest: z.string().meta({ description: 'sha256 (hex) of the subject: the subject itself is never stored.' }),
  })
  .meta({
    id: 'ReceiptExperiment',
    description:
      'Format 2 receipts: the experiment arm the quote was priced with (null outside any experiment; absent from format 1 receipts). Recompute it offline from the experiment’s definition and the subject: `npm run verify-receipt -- <receipt> --experiment <definition.json> --subject <subject>`.',
  });

export const quoteReceiptSchema = z
  .object({
    // Every field of every format; those a format lacks are optional (absent from its receipts).
    ...receiptShapeOfEveryFormat({
      id: z.uuid(),
      quoteIntentId: z.uuid(),
      outcome: z.enum(['succeeded', 'requires_input', 'failed']),
      source: quoteSourceSchema,
      bookVersionId: z.uuid().nullable(),
      computation: quoteComputationSchema.nullable(),
      missingInputs: z.array(z.string()),
      failure: z.object({ code: z.string(), message: z.string() }).nullable(),
      idempotencyKey: z.string(),
      requestCorrelationId: z.string(),
      latencyMs: z.number().int().min(0),
      createdAt: z.iso.datetime(),
      experiment: receiptExperimentSchema.nullable(),
    }),
    signature: receiptSignatureSchema.nullable(),
  })
  .meta({ id: 'QuoteReceipt' });

export const quoteResultSchema = z
  .object({ quoteIntent: quoteIntentSchema, quoteReceipt: quoteReceiptSchema })
  .meta({ id: 'QuoteResult' });

export type QuoteIntentView = z.infer<typeof quoteIntentSchema>;
export type QuoteReceiptView = z.infer<typeof quoteReceiptSchema>;
export type QuoteResult = z.infer<typeof quoteResultSchema>;

/** One quote of a business, as its members list them (the trace has the rest). */
export const businessQuoteSchema = z
  .object({
    id: z.uuid(),
    environment: z.enum(['test', 'live']),
    source: quoteSourceSchema,
    status: quoteIntentStatusSchema,
    offeringId: z.string(),
    /** The offering's name in the version that priced the quote; null when it names none, or one that version does not have. */
    offeringLabel: z.string().nullable(),
    totalMinor: z.number().int().nullable(),
    currency: z.string().nullable(),
    bookVersionNumber: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BusinessQuote' });
export type BusinessQuote = z.infer<typeof businessQuoteSchema>;

/** The filters of a list of a business's quotes (the member route and the workspace's), and one page of it. */
export const businessQuotesFilterShape = {
  status: quoteIntentStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: timeIdCursorSchema.optional(),
};

export const businessQuotesPage = {
  status: 200,
  description: 'One page; pass `nextCursor` as `cursor` for the next. Each quote\'s trace is at /v1/quote-intents/{id}/trace.',
  schema: z.object({ quotes: z.array(businessQuoteSchema), nextCursor: z.string().nullable() }),
};

/** POST /v1/quote-intents/{id}/verification: the receipt's signature, and a recomputation of its price. */
export const quoteVerificationSchema = z
  .object({
    quoteIntentId: z.uuid(),
    quoteReceiptId: z.uuid(),
    bookVersionId: z.uuid().nullable(),
    /** Both hold: the signature is valid and the recomputation is identical. */
    verified: z.boolean(),
    signature: z.object({
      status: z.enum(['verified', 'unsigned', 'unknown_kid', 'unsupported_alg', 'bad_signature']),
      kid: z.string().nullable(),
      message: z.string(),
    }),
    recomputation: z.object({
      identical: z.boolean(),
      storedDigest: z.string().meta({ description: 'sha256 (hex) of the canonical JSON of the stored outcome, computation, missingInputs and failure.' }),
      recomputedDigest: z.string().meta({ description: 'The same digest of the recomputed fields.' }),
      firstDifference: z
        .object({
          path: z.string().meta({ description: 'Where they part, e.g. `computation.derivation[3]`.' }),
          sequence: z.number().int().nullable().meta({ description: 'The derivation step, when they part in the derivation.' }),
          stored: z.unknown(),
          recomputed: z.unknown(),
        })
        .nullable(),
      message: z.string(),
    }),
  })
  .meta({ id: 'QuoteVerification' });
export type QuoteVerification = z.infer<typeof quoteVerificationSchema>;
