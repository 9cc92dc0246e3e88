import { z } from 'zod';
import { timeIdCursorSchema } from '../db/cursors';
import { receiptSignatureSchema } from '../receipts/schemas';

// The account-scoped surface (spec 2.8, 4.3): snake_case fields, `object` discriminators.

export const accountSchema = z
  .object({
    object: z.literal('account'),
    id: z.string(),
    name: z.string(),
    environment: z.enum(['test', 'live']),
    scopes: z.array(z.string()),
    entitlements: z.array(z.string()),
  })
  .meta({ id: 'Account' });

export const accountListSchema = z
  .object({ object: z.literal('list'), data: z.array(accountSchema), has_more: z.boolean() })
  .meta({ id: 'AccountList' });

export const simulationRequestSchema = z
  .strictObject({
    services: z
      .array(
        z.strictObject({
          service: z.string().min(1).max(80),
          selections: z.record(z.string().min(1).max(80), z.string().max(200).nullable()).default({}),
        }),
      )
      .min(1)
      .max(50),
    context: z.record(z.string().max(80), z.unknown()).default({}),
  })
  .meta({ id: 'QuoteSimulationRequest' });

const cents = z.object({ low_cents: z.number().int(), high_cents: z.number().int() });

/**
 * The evaluator's decision and what kind of answer the customer can have (names are ours). The
 * spec allows `unavailable`; no answer carries it now: with nothing published the routes answer 404.
 */
const DECISIONS = ['priced', 'needs_input', 'unavailable', 'failed'] as const;
const PRICING_MODES = ['instant', 'quote', 'unavailable'] as const;

export const simulationSchema = z
  .object({
    object: z.literal('quote_simulation'),
    decision: z.enum(DECISIONS),
    pricing_mode: z.enum(PRICING_MODES),
    book: z.object({ key: z.string(), version: z.number().int(), currency: z.string(), artifact_hash: z.string() }),
    total: cents.extend({ currency: z.string() }),
    line_items: z.array(z.object({ source: z.string(), label: z.string(), kind: z.string(), quantity: z.number(), total: cents })),
    missing_inputs: z.array(
      z.object({
        service: z.string(),
        selection: z.string(),
        label: z.string(),
        reason: z.enum(['required', 'unknown']),
        options: z.array(z.object({ value: z.string(), label: z.string() })),
      }),
    ),
    review_reasons: z.array(z.object({ code: z.string(), message: z.string() })),
    inspection: z.object({ kind: z.enum(['none', 'site_visit']), code: z.string(), prompt: z.string() }),
    derivation: z.array(z.object({ kind: z.string(), label: z.string() })),
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
  })
  .meta({ id: 'QuoteSimulation' });

const QUOTE_STATES = ['quoted', 'awaiting_approval', 'observed', 'new'] as const;
const DISPOSITIONS = ['send', 'hold', 'observe', 'unpriced'] as const;

export const producedQuoteSchema = z
  .object({
    object: z.literal('quote'),
    quote_id: z.string(),
    state: z.enum(QUOTE_STATES),
    disposition: z.enum(DISPOSITIONS),
    decision: z.enum(DECISIONS),
    pricing_mode: z.enum(PRICING_MODES),
    total: cents,
    currency: z.string(),
    book: z.object({ version_id: z.string() }),
    /**
     * Present when an experiment running on the book priced the quote (not in the spec: an
     * addition): the arm, its bucket and the subject's digest, signed with the rest, so the arm
     * can be recomputed offline from the experiment's definition and the subject (docs/experiments.md).
     */
    experiment: z
      .object({ experiment_id: z.string(), arm: z.string(), bucket: z.number().int(), subject_digest: z.string() })
      .optional()
      .meta({ description: 'Not in the spec (an addition): present when a running experiment priced the quote; `book.version_id` is its arm’s version (docs/experiments.md).' }),
    message: z.string(),
    /** Present when the quote could not be priced. */
    unpriced_reason: z.object({ code: z.string(), message: z.string() }).nullable(),
    created: z.iso.datetime(),
    /**
     * Until when the price holds (the book version's `quoteValidityDays`); null when it never
     * expires or the quote is unpriced. Absent on quotes made before prices had a validity: a
     * field added later never changes what an earlier signature covered.
     */
    expires_at: z.iso.datetime().nullable().optional(),
    /** Null on quotes stored before they were signed (their replays answer as they were). */
    signature: receiptSignatureSchema.nullable().default(null),
  })
  .meta({ id: 'ProducedQuote' });

export const commitmentRequestSchema = z
  .strictObject({
    external_ref: z.string().min(1).max(200),
    receipt_signature: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'The `signature.value` of the quote the customer was shown: a commitment to any other quote answers 409 `receipt_mismatch`.' }),
    expected_total: z
      .strictObject(cents.shape)
      .optional()
      .meta({ description: 'The total the customer was shown (`total` of the quote): any other answers 409 `receipt_mismatch`.' }),
  })
  .meta({ id: 'CommitmentRequest' });

export const commitmentSchema = z
  .object({
    object: z.literal('commitment'),
    commitment_id: z.string(),
    quote_id: z.string(),
    external_ref: z.string(),
    confirmed: z.boolean(),
    confirmed_at: z.iso.datetime(),
  })
  .meta({ id: 'Commitment' });

export const quoteSpecSchema = z
  .object({
    object: z.literal('quote_spec'),
    book: z.object({
      id: z.uuid().describe('The book to name in `POST /v1/quotes` (`bookId`). Not in the spec: an addition.'),
      key: z.string(),
      version: z.number().int(),
      currency: z.string(),
      artifact_hash: z.string(),
    }),
    businesses: z
      .array(z.object({ id: z.uuid(), name: z.string() }))
      .describe('The businesses connected to this account, whose quotes `POST /v1/quotes` makes (`businessId`). Not in the spec: an addition.'),
    autonomy: z.enum(['autonomous', 'approval_first', 'observe']),
    services: z.array(
      z.object({
        service: z.string(),
        label: z.string(),
        description: z.string().nullable(),
        selections: z.array(
          z.object({
            selection: z.string(),
            label: z.string(),
            required: z.boolean(),
            unknown_allowed: z.boolean(),
            options: z.array(z.object({ value: z.string(), label: z.string(), requires_inspection: z.boolean() })),
          }),
        ),
      }),
    ),
    conditions: z.array(z.string()),
  })
  .meta({ id: 'QuoteSpec' });

export const accountRequestLogListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        request_id: z.string(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        error_code: z.string().nullable(),
        api_key_id: z.string().nullable(),
        latency_ms: z.number().int(),
        created: z.iso.datetime(),
      }),
    ),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'AccountRequestLogList' });

export const REVIEW_DECISIONS = ['approved', 'declined'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** The business's review of a held quote: who decided what, when, and why. */
export const quoteReviewSchema = z
  .object({
    decision: z.enum(REVIEW_DECISIONS),
    reason: z.string().nullable(),
    reviewedAt: z.iso.datetime(),
    reviewedBy: z.object({ id: z.uuid(), name: z.string().nullable(), email: z.string().nullable() }),
  })
  .meta({ id: 'QuoteReview' });

/** The filters of a list of account quotes (member and workspace routes): by state, by review, which end first, a page. */
export const accountQuotesFilterShape = {
  state: z.enum(['quoted', 'awaiting_approval', 'observed', 'new']).optional(),
  review: z
    .enum(['pending', 'reviewed', 'approved', 'declined'])
    .optional()
    .meta({ description: '`pending`: not reviewed yet; `reviewed`: approved or declined; else that decision.' }),
  order: z.enum(['oldest', 'newest']).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: timeIdCursorSchema.optional(),
};

const reviewShape = {
  decision: z.enum(REVIEW_DECISIONS),
  reason: z.string().trim().max(1000).optional().meta({ description: 'Why; required to decline. Recorded with the decision and sent in its event.' }),
};

const declineSaysWhy = (body: { decision: string; reason?: string }, ctx: z.RefinementCtx) => {
  if (body.decision === 'declined' && !body.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'say why the quote is declined' });
};

export const reviewQuoteRequestSchema = z.strictObject(reviewShape).superRefine(declineSaysWhy).meta({ id: 'ReviewQuoteRequest' });

/** The workspace route's review (`POST /v1/account-quotes/{quoteId}/review`): the business it is for, then the same decision. */
export const workspaceReviewQuoteRequestSchema = z
  .strictObject({ businessId: z.uuid().describe('The business whose connected project made the quote.'), ...reviewShape })
  .superRefine(declineSaysWhy)
  .meta({ id: 'WorkspaceReviewQuoteRequest' });

/**
 * An account-surface quote as its business sees it (session routes, camelCase): what the
 * customer asked, how it was priced and why it was held, the signed quote as the integration was
 * answered, and what became of it since (review, expiry, commitment).
 */
export const accountQuoteViewSchema = z
  .object({
    id: z.uuid(),
    environment: z.enum(['test', 'live']),
    state: z.enum(QUOTE_STATES),
    disposition: z.enum(DISPOSITIONS),
    total: z.object({ lowMinor: z.number().int(), highMinor: z.number().int() }),
    currency: z.string(),
    bookVersion: z.object({ id: z.uuid(), number: z.number().int() }).nullable(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    /** The price's validity has passed: it can no longer be approved or committed. */
    expired: z.boolean(),
    /** What the integration sent (`services`, `context`); null on quotes stored before it was kept. */
    request: simulationRequestSchema.nullable(),
    /** The request in the pinned version's words: each service and what was answered, by label. */
    answers: z
      .array(
        z.object({
          service: z.string(),
          label: z.string().nullable(),
          selections: z.array(z.object({ selection: z.string(), label: z.string().nullable(), value: z.string().nullable(), valueLabel: z.string().nullable() })),
        }),
      )
      .nullable(),
    /** The pinned version's evaluation of that request, computed again (the engine is deterministic). */
    simulation: simulationSchema.nullable(),
    review: quoteReviewSchema.nullable(),
    commitment: z.object({ id: z.uuid(), externalRef: z.string(), confirmedAt: z.iso.datetime() }).nullable(),
    /** The quote exactly as `POST /v1/accounts/{id}/quotes` answered it, with its signature. */
    signedQuote: producedQuoteSchema,
  })
  .meta({ id: 'AccountQuoteView' });

export type AccountQuoteView = z.infer<typeof accountQuoteViewSchema>;
export type SimulationRequest = z.output<typeof simulationRequestSchema>;
export type Simulation = z.infer<typeof simulationSchema>;
export type ProducedQuote = z.infer<typeof producedQuoteSchema>;

/** One page of account quotes, as both lists (member and workspace routes) answer it. */
export const accountQuotesPage = {
  status: 200,
  description: 'One page; pass `nextCursor` as `cursor` for the next.',
  schema: z.object({ quotes: z.array(accountQuoteViewSchema), nextCursor: z.string().nullable() }),
};

/**
 * A produced quote read back on the account surface (GET /v1/accounts/{id}/quotes): `quote` is
 * the signed quote exactly as first answered (its signature verifies), beside what became of it
 * since, unsigned, as the `account_quote.approved` event carries it: `state`, `review`, `commitment`.
 */
export const accountQuoteRecordSchema = z
  .object({
    object: z.literal('account_quote'),
    id: z.string(),
    /** The state now (a held quote the business approved reads `quoted`; `quote.state` is as answered). */
    state: z.enum(QUOTE_STATES),
    /** The price's validity (`quote.expires_at`) has passed: it can no longer be committed. */
    expired: z.boolean(),
    review: z.object({ decision: z.enum(REVIEW_DECISIONS), reason: z.string().nullable(), reviewed_at: z.iso.datetime(), reviewed_by: z.string() }).nullable(),
    commitment: z.object({ commitment_id: z.string(), external_ref: z.string(), confirmed_at: z.iso.datetime() }).nullable(),
    created: z.iso.datetime(),
    quote: producedQuoteSchema,
  })
  .meta({ id: 'AccountQuoteRecord' });

export const accountQuoteListSchema = z
  .object({ object: z.literal('list'), data: z.array(accountQuoteRecordSchema), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: 'AccountQuoteList' });

export type AccountQuoteRecordView = z.infer<typeof accountQuoteRecordSchema>;
