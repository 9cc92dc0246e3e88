import { z } from 'zod';
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
    message: z.string(),
    /** Present when the quote could not be priced. */
    unpriced_reason: z.object({ code: z.string(), message: z.string() }).nullable(),
    created: z.iso.datetime(),
    /** Null on quotes stored before they were signed (their replays answer as they were). */
    signature: receiptSignatureSchema.nullable().default(null),
  })
  .meta({ id: 'ProducedQuote' });

export const commitmentRequestSchema = z.strictObject({ external_ref: z.string().min(1).max(200) }).meta({ id: 'CommitmentRequest' });

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
    book: z.object({ key: z.string(), version: z.number().int(), currency: z.string(), artifact_hash: z.string() }),
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

export type SimulationRequest = z.output<typeof simulationRequestSchema>;
export type Simulation = z.infer<typeof simulationSchema>;
export type ProducedQuote = z.infer<typeof producedQuoteSchema>;
