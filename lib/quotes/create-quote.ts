import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { compiled } from '../books/published-version';
import type { Db, DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { evaluate, type Outcome, type QuoteInputs } from '../pricing';
import { expireIfDue } from './expire-quote-intents';
import { toQuoteResult, type QuoteIntentRow, type QuoteReceiptRow } from './quote-views';
import { surfaceUnavailable, type QuoteScope } from './resolve-quote-scope';
import type { QuoteResult } from './schemas';

/** How long an intent that requires input stays answerable before it expires. */
export const REQUIRES_INPUT_TTL_MS = 24 * 60 * 60 * 1000;

/** The engine's outcome, or the receipt-level failure of having nothing published. */
type QuoteOutcome = Outcome | { outcome: 'failed'; failure: { code: 'no_published_version'; message: string } };

export type QuoteContext = { db: Db; requestId: string; now: Date; startedAt: number };

export type CreateQuoteInput = {
  scope: QuoteScope;
  source: 'hosted' | 'api';
  /** Callers that share a namespace of idempotency keys: `api`, `public:<id>`, `member:<id>`. */
  idempotencyScope: string;
  inputs: QuoteInputs;
  idempotencyKey?: string;
  /** The request fields that make two requests "the same payload" (spec 4.4). */
  payload: Record<string, unknown>;
  /** The public route answers 404 when nothing is published; the others record a failed receipt. */
  whenUnpublished: 'failed_receipt' | 'surface_unavailable';
};

/**
 * Creates a Quote Intent and its immutable Receipt against the version published now in the
 * scope's environment, or replays the intent an idempotency key already names.
 * Intent, receipt and outcome event are written by one statement, so they exist together or
 * not at all, and 50 concurrent requests with one key still create exactly one intent.
 */
export async function createQuote(
  ctx: QuoteContext,
  input: CreateQuoteInput,
): Promise<{ result: QuoteResult; replayed: boolean }> {
  const { db, now } = ctx;
  const idempotencyKey = input.idempotencyKey ?? `auto_${randomUUID()}`;
  const fingerprint = createHash('sha256').update(canonicalize(input.payload) ?? '').digest('hex');
  const keyOf = { environmentId: input.scope.environmentId, idempotencyScope: input.idempotencyScope, idempotencyKey };

  // The scope query already looked for an intent under this key; look again only if it did not.
  if (input.idempotencyKey && input.scope.existingIntentId !== null) {
    const existing = await findByKey(db, keyOf);
    if (existing) return replay(db, existing, fingerprint, now);
  }

  const versionId = input.scope.publishedVersionId;
  if (!versionId && input.whenUnpublished === 'surface_unavailable') throw surfaceUnavailable();
  const version = versionId ? { id: versionId, book: await compiled(db, versionId) } : null;
  const outcome: QuoteOutcome = version
    ? evaluate(version.book, input.inputs)
    : {
        outcome: 'failed',
        failure: { code: 'no_published_version', message: 'No book version is published in this environment.' },
      };

  const intent: QuoteIntentRow = {
    id: randomUUID(),
    workspaceId: input.scope.workspaceId,
    projectId: input.scope.projectId,
    environmentId: input.scope.environmentId,
    bookId: input.scope.bookId,
    bookVersionId: version?.id ?? null,
    status: outcome.outcome,
    source: input.source,
    idempotencyKey,
    requestCorrelationId: ctx.requestId,
    inputs: input.inputs,
    expiresAt: outcome.outcome === 'requires_input' ? new Date(now.getTime() + REQUIRES_INPUT_TTL_MS) : null,
    createdAt: now,
  };
  const receipt: QuoteReceiptRow = {
    id: randomUUID(),
    quoteIntentId: intent.id,
    outcome: outcome.outcome,
    source: input.source,
    bookVersionId: intent.bookVersionId,
    computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
    missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
    failure: outcome.outcome === 'failed' ? outcome.failure : null,
    idempotencyKey,
    requestCorrelationId: ctx.requestId,
    latencyMs: Math.max(0, Math.round(performance.now() - ctx.startedAt)),
    createdAt: now,
  };
  const result = toQuoteResult(intent, receipt);
  const inserted = await insertQuote(db, intent, receipt, input, fingerprint, result);
  if (inserted) return { result, replayed: false };

  // Another request with the same key committed first: answer as its replay.
  const winner = await findByKey(db, keyOf);
  if (!winner) throw new Error('idempotency conflict without a stored intent');
  return replay(db, winner, fingerprint, now);
}

type StoredQuote = NonNullable<Awaited<ReturnType<typeof findByKey>>>;

function findByKey(db: DbOrTx, key: { environmentId: string; idempotencyScope: string; idempotencyKey: string }) {
  return db.quoteIntent.findUnique({
    where: { environmentId_idempotencyScope_idempotencyKey: key },
    include: { receipt: true },
  });
}

async function replay(db: DbOrTx, stored: StoredQuote, fingerprint: string, now: Date) {
  if (stored.requestFingerprint !== fingerprint) {
    throw new ServiceError(
      'idempotency_conflict',
      `Idempotency key "${stored.idempotencyKey}" was already used with a different request.`,
    );
  }
  const intent = await expireIfDue(db, stored, now);
  return { result: toQuoteResult(intent, stored.receipt!), replayed: true };
}

async function insertQuote(
  db: DbOrTx,
  intent: QuoteIntentRow,
  receipt: QuoteReceiptRow,
  input: CreateQuoteInput,
  fingerprint: string,
  result: QuoteResult,
): Promise<boolean> {
  const event = {
    id: randomUUID(),
    type: `quote_intent.${intent.status}`,
    data: JSON.stringify(result),
  };
  const rows = await sqlRows<{ id: string }>(
    db,
    `WITH new_intent AS (
       INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id, business_id,
         status, source, idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs,
         expires_at, created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7::uuid, $8::"QuoteIntentStatus",
         $9::"QuoteSource", $10::text, $11::text, $12::text, $13::text, $14::json, $15::timestamptz, $16::timestamptz,
         $16::timestamptz)
       ON CONFLICT (environment_id, idempotency_scope, idempotency_key) DO NOTHING
       RETURNING id
     ), new_receipt AS (
       INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, book_version_id, computation, missing_inputs,
         failure, idempotency_key, request_correlation_id, latency_ms, created_at)
       SELECT $17::uuid, id, $25::"ReceiptOutcome", $9::"QuoteSource", $6::uuid, $18::json, $19::text[], $20::json,
         $11::text, $13::text, $21::int, $16::timestamptz
       FROM new_intent
     ), new_event AS (
       INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, business_id, subject_id,
         data, created_at)
       SELECT $22::uuid, $23::text, 1, $2::uuid, $3::uuid, $4::uuid, $7::uuid, $1::uuid, $24::jsonb, $16::timestamptz
       FROM new_intent
     )
     SELECT id::text FROM new_intent`,
    [
      intent.id,
      intent.workspaceId,
      intent.projectId,
      intent.environmentId,
      intent.bookId,
      intent.bookVersionId,
      input.scope.businessId,
      intent.status,
      intent.source,
      input.idempotencyScope,
      intent.idempotencyKey,
      fingerprint,
      intent.requestCorrelationId,
      JSON.stringify(intent.inputs),
      intent.expiresAt,
      intent.createdAt,
      receipt.id,
      jsonOrNull(receipt.computation),
      receipt.missingInputs,
      jsonOrNull(receipt.failure),
      receipt.latencyMs,
      event.id,
      event.type,
      event.data,
      receipt.outcome,
    ],
  );
  return rows.length === 1;
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
