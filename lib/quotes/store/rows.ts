import { Table } from '../../db/statement';
import type { ReceiptExperiment } from '../../experiments/assignment';
import type { QuoteIntentView, QuoteReceiptView } from '../schemas';

// The quotes' store (lib/quotes/store.ts): rows and their column maps.

/** A stored intent: the fields its view shows, and those only the store reads. */
export type QuoteIntentRow = {
  id: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string;
  bookVersionId: string | null;
  businessId: string | null;
  status: QuoteIntentView['status'];
  source: QuoteIntentView['source'];
  /** Who may replay this intent by key: `api`, `public:<businessId>` or `member:<businessId>`. */
  idempotencyScope: string;
  idempotencyKey: string;
  /** sha256 of the canonical request: the same key with another fingerprint is a conflict. */
  requestFingerprint: string;
  requestCorrelationId: string;
  inputs: unknown;
  expiresAt: Date | null;
  /** The experiment and arm the receipt records (copies, for experiment results); null outside one. */
  experimentId: string | null;
  experimentArm: string | null;
  /** The receipt's priced total, as PostgreSQL reads a bigint (a decimal string); null unless priced. */
  totalMinor: string | null;
  currency: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type QuoteReceiptRow = {
  id: string;
  quoteIntentId: string;
  outcome: QuoteReceiptView['outcome'];
  source: QuoteReceiptView['source'];
  bookVersionId: string | null;
  computation: unknown;
  missingInputs: string[];
  failure: unknown;
  idempotencyKey: string;
  requestCorrelationId: string;
  latencyMs: number;
  createdAt: Date;
  /** The receipt's signature (null on receipts from before signing): made once, never recomputed. */
  signatureKid: string | null;
  signature: string | null;
  /** The format it was written and signed in (lib/receipts/receipt-format.ts): what it shows. */
  formatVersion: number;
  /** Format 2: the experiment arm the quote was priced with; null outside any experiment. */
  experiment: ReceiptExperiment | null;
};

export type StoredQuote = { intent: QuoteIntentRow; receipt: QuoteReceiptRow };

/**
 * A priced quote's total and currency in a read of `quote_intents qi` and `quote_receipts r`: the
 * intent's copies (written with the receipt since 2 December), the receipt's computation for
 * older quotes. Reading the computation (2–3 KB of JSON stored out of line, parsed per field) cost
 * the funnel most of its time.
 */
export const PRICED_TOTAL_MINOR_SQL = `coalesce(qi.total_minor, (r.computation->>'totalMinor')::bigint)`;
export const PRICED_CURRENCY_SQL = `coalesce(qi.currency, r.computation->>'currency')`;

export const quoteIntents = new Table<QuoteIntentRow>('quote_intents', {
  id: ['id', 'uuid'],
  workspaceId: ['workspace_id', 'uuid'],
  projectId: ['project_id', 'uuid'],
  environmentId: ['environment_id', 'uuid'],
  bookId: ['book_id', 'uuid'],
  bookVersionId: ['book_version_id', 'uuid'],
  businessId: ['business_id', 'uuid'],
  status: ['status', '"QuoteIntentStatus"'],
  source: ['source', '"QuoteSource"'],
  idempotencyScope: ['idempotency_scope', 'text'],
  idempotencyKey: ['idempotency_key', 'text'],
  requestFingerprint: ['request_fingerprint', 'text'],
  requestCorrelationId: ['request_correlation_id', 'text'],
  inputs: ['inputs', 'json'],
  expiresAt: ['expires_at', 'timestamptz'],
  experimentId: ['experiment_id', 'uuid'],
  experimentArm: ['experiment_arm', 'text'],
  totalMinor: ['total_minor', 'bigint'],
  currency: ['currency', 'text'],
  createdAt: ['created_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
});

/** `computation` is `json`, not `jsonb`: a receipt's evidence is kept byte for byte as written. */
export const quoteReceipts = new Table<QuoteReceiptRow>('quote_receipts', {
  id: ['id', 'uuid'],
  quoteIntentId: ['quote_intent_id', 'uuid'],
  outcome: ['outcome', '"ReceiptOutcome"'],
  source: ['source', '"QuoteSource"'],
  bookVersionId: ['book_version_id', 'uuid'],
  computation: ['computation', 'json'],
  missingInputs: ['missing_inputs', 'text[]'],
  failure: ['failure', 'json'],
  idempotencyKey: ['idempotency_key', 'text'],
  requestCorrelationId: ['request_correlation_id', 'text'],
  latencyMs: ['latency_ms', 'int'],
  createdAt: ['created_at', 'timestamptz'],
  signatureKid: ['signature_kid', 'text'],
  signature: ['signature', 'text'],
  formatVersion: ['format_version', 'int'],
  experiment: ['experiment', 'json'],
});
