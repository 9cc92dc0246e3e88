import { randomUUID } from 'node:crypto';
import { compiled } from '../books/published-version';
import type { Db, DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { canonicalHash } from '../hash/canonical-hash';
import type { EventType } from '../events/catalogue';
import { fanOutSql } from '../events/record-event';
import { ServiceError } from '../errors/service-error';
import { evaluate, type Outcome, type QuoteInputs } from '../pricing';
import { expireIfDue } from './expire-quote-intents';
import { toQuoteResult, type QuoteIntentRow, type QuoteReceiptRow } from './quote-views';
import { surfaceUnavailable, type QuoteScope, type ScopeResolver } from './resolve-quote-scope';
import type { QuoteResult } from './schemas';

/** How long an intent that requires input stays answerable before it expires. */
const REQUIRES_INPUT_TTL_MS = 24 * 60 * 60 * 1000;

/** The engine's outcome, or the receipt-level failure of having nothing published. */
type QuoteOutcome = Outcome | { outcome: 'failed'; failure: { code: 'no_published_version'; message: string } };

export type QuoteContext = { db: Db; requestId: string; now: Date; startedAt: number };

export type CreateQuoteInput = {
  resolveScope: ScopeResolver;
  source: 'hosted' | 'api';
  /** Callers that share a namespace of idempotency keys: `api`, `public:<id>`, `member:<id>`. */
  idempotencyScope: string;
  inputs: QuoteInputs;
  idempotencyKey?: string;
  /** The request fields that make two requests "the same payload" (spec 4.4). */
  payload: Record<string, unknown>;
  /** An API key taken from memory: the insert writes only while it is still valid, and confirms it. */
  apiKey?: { id: string; check: { confirmed: boolean } };
  /** The public route answers 404 when nothing is published; the others record a failed receipt. */
  whenUnpublished: 'failed_receipt' | 'surface_unavailable';
};

/** Scopes found stale this many times in a row (publishes racing the quote) give up. */
const MAX_SCOPE_ATTEMPTS = 3;

/**
 * Creates a Quote Intent and its immutable Receipt against the version published now in the
 * scope's environment, or replays the intent an idempotency key already names.
 * Intent, receipt and outcome event are written by one statement, so they exist together or
 * not at all, and 50 concurrent requests with one key still create exactly one intent. That
 * statement also re-checks the scope (a remembered one may be stale): if the publication or
 * connection changed, nothing is written and the quote is made again on a fresh scope.
 */
export async function createQuote(
  ctx: QuoteContext,
  input: CreateQuoteInput,
): Promise<{ result: QuoteResult; replayed: boolean; scope: QuoteScope }> {
  const { db, now } = ctx;
  const idempotencyKey = input.idempotencyKey ?? `auto_${randomUUID()}`;
  const fingerprint = canonicalHash(input.payload);

  for (let attempt = 1; ; attempt++) {
    const scope = await input.resolveScope(attempt > 1);
    const keyOf = { environmentId: scope.environmentId, idempotencyScope: input.idempotencyScope, idempotencyKey };
    // A fresh scope query already looked for an intent under this key; look again only if it found one.
    if (input.idempotencyKey && scope.existingIntentId) {
      const existing = await findByKey(db, keyOf);
      if (existing) return { ...(await replay(db, existing, fingerprint, now)), scope };
    }

    const written = await priceAndInsert(ctx, input, scope, idempotencyKey, fingerprint);
    if (written.outcome === 'key_refused') throw new ServiceError('invalid_api_key', 'This API key is no longer valid.');
    if (input.apiKey && written.outcome !== 'scope_changed') input.apiKey.check.confirmed = true;
    if (written.outcome === 'inserted') return { result: written.result, replayed: false, scope };
    if (written.outcome === 'key_taken') {
      // Another request with the same key committed first: answer as its replay.
      const winner = await findByKey(db, keyOf);
      if (!winner) throw new Error('idempotency conflict without a stored intent');
      return { ...(await replay(db, winner, fingerprint, now)), scope };
    }
    if (attempt >= MAX_SCOPE_ATTEMPTS) {
      throw new ServiceError('conflict', 'The price book changed while this quote was being made. Retry the request.');
    }
  }
}

/** Prices the request against the scope's version and writes intent, receipt and event. */
async function priceAndInsert(
  ctx: QuoteContext,
  input: CreateQuoteInput,
  scope: QuoteScope,
  idempotencyKey: string,
  fingerprint: string,
): Promise<{ outcome: 'inserted'; result: QuoteResult } | { outcome: Exclude<InsertOutcome, 'inserted'> }> {
  const { db, now } = ctx;
  const versionId = scope.publishedVersionId;
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
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    bookId: scope.bookId,
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
  const written = await insertQuote(db, intent, receipt, input, scope, fingerprint, result);
  return written === 'inserted' ? { outcome: 'inserted', result } : { outcome: written };
}

type InsertOutcome = 'inserted' | 'key_taken' | 'scope_changed' | 'key_refused';

type StoredQuote = QuoteIntentRow & { requestFingerprint: string; receipt: QuoteReceiptRow };

/** The intent an idempotency key names, with its receipt: one indexed read. */
async function findByKey(
  db: DbOrTx,
  key: { environmentId: string; idempotencyScope: string; idempotencyKey: string },
): Promise<StoredQuote | null> {
  const [row] = await sqlRows<QuoteIntentRow & { requestFingerprint: string; receipt: ReceiptJson }>(
    db,
    `SELECT qi.id::text AS id, qi.workspace_id::text AS "workspaceId", qi.project_id::text AS "projectId",
       qi.environment_id::text AS "environmentId", qi.book_id::text AS "bookId",
       qi.book_version_id::text AS "bookVersionId", qi.status::text AS status, qi.source::text AS source,
       qi.idempotency_key AS "idempotencyKey", qi.request_correlation_id AS "requestCorrelationId",
       qi.request_fingerprint AS "requestFingerprint", qi.inputs, qi.expires_at AS "expiresAt",
       qi.created_at AS "createdAt",
       json_build_object('id', r.id, 'quoteIntentId', r.quote_intent_id, 'outcome', r.outcome, 'source', r.source,
         'bookVersionId', r.book_version_id, 'computation', r.computation, 'missingInputs', r.missing_inputs,
         'failure', r.failure, 'idempotencyKey', r.idempotency_key, 'requestCorrelationId', r.request_correlation_id,
         'latencyMs', r.latency_ms, 'createdAt', r.created_at) AS receipt
     FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
     WHERE qi.environment_id = $1::uuid AND qi.idempotency_scope = $2::text AND qi.idempotency_key = $3::text`,
    [key.environmentId, key.idempotencyScope, key.idempotencyKey],
  );
  if (!row) return null;
  return {
    ...row,
    receipt: { ...row.receipt, missingInputs: row.receipt.missingInputs ?? [], createdAt: new Date(row.receipt.createdAt) },
  };
}

/** A receipt as json_build_object returns it: timestamps as text. */
type ReceiptJson = Omit<QuoteReceiptRow, 'createdAt' | 'missingInputs'> & { createdAt: string; missingInputs: string[] | null };

async function replay(db: DbOrTx, stored: StoredQuote, fingerprint: string, now: Date) {
  if (stored.requestFingerprint !== fingerprint) {
    throw new ServiceError(
      'idempotency_conflict',
      `Idempotency key "${stored.idempotencyKey}" was already used with a different request.`,
    );
  }
  const intent = await expireIfDue(db, stored, now);
  return { result: toQuoteResult(intent, stored.receipt), replayed: true };
}

/**
 * Intent, receipt, outcome event and its webhook deliveries in one statement, written only while
 * the API key (when taken from memory) and the scope still hold. $1…$27: see insertQuote.
 */
const INSERT_QUOTE_SQL = `WITH key_holds AS (
       SELECT 1 WHERE $27::uuid IS NULL OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = $27::uuid
         AND k.status <> 'revoked' AND (k.revoked_at IS NULL OR k.revoked_at > $16::timestamptz))
     ), scope_holds AS (
       SELECT 1 FROM key_holds WHERE EXISTS (SELECT 1 FROM connections c WHERE c.business_id = $7::uuid AND c.project_id = $3::uuid
           AND c.status = 'active')
         AND (SELECT p.book_version_id FROM publications p WHERE p.book_id = $5::uuid AND p.environment_id = $4::uuid)
           IS NOT DISTINCT FROM $6::uuid
         AND (NOT $26::boolean
           OR EXISTS (SELECT 1 FROM projects pr WHERE pr.id = $3::uuid AND pr.primary_book_id = $5::uuid))
     ), new_intent AS (
       INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id, business_id,
         status, source, idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs,
         expires_at, created_at, updated_at)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7::uuid, $8::"QuoteIntentStatus",
         $9::"QuoteSource", $10::text, $11::text, $12::text, $13::text, $14::json, $15::timestamptz, $16::timestamptz,
         $16::timestamptz
       FROM scope_holds
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
         data, created_at, dispatched_at)
       SELECT $22::uuid, $23::text, 1, $2::uuid, $3::uuid, $4::uuid, $7::uuid, $1::uuid, $24::json, $16::timestamptz,
         $16::timestamptz
       FROM new_intent
       RETURNING id, type, environment_id
     ), new_deliveries AS (
       ${fanOutSql('new_event', '$16::timestamptz')}
     )
     SELECT (SELECT id::text FROM new_intent) AS id, EXISTS (SELECT 1 FROM key_holds) AS key_holds,
       EXISTS (SELECT 1 FROM scope_holds) AS scope_holds`;

async function insertQuote(
  db: DbOrTx,
  intent: QuoteIntentRow,
  receipt: QuoteReceiptRow,
  input: CreateQuoteInput,
  scope: QuoteScope,
  fingerprint: string,
  result: QuoteResult,
): Promise<InsertOutcome> {
  const event = {
    id: randomUUID(),
    type: `quote_intent.${receipt.outcome}` satisfies EventType,
    data: JSON.stringify(result),
  };
  const [written] = await sqlRows<{ id: string | null; key_holds: boolean; scope_holds: boolean }>(
    db,
    INSERT_QUOTE_SQL,
    [
      intent.id,
      intent.workspaceId,
      intent.projectId,
      intent.environmentId,
      intent.bookId,
      intent.bookVersionId,
      scope.businessId,
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
      scope.bookMustBePrimary,
      input.apiKey?.id ?? null,
    ],
  );
  if (!written.key_holds) return 'key_refused';
  if (!written.scope_holds) return 'scope_changed';
  return written.id ? 'inserted' : 'key_taken';
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
