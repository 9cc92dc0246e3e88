import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { sqlBatches, sqlRows } from '../db/sql';
import { Statement, Table, type StatementBuilder } from '../db/statement';
import { eventCtes, type OutboxEventRow } from '../events/store';
import { timeIdPage } from '../db/cursors';
import { authenticateApiKey, rememberedApiKey } from '../keys/authenticate-api-key';
import type { BusinessQuote, QuoteIntentView, QuoteReceiptView } from './schemas';

/**
 * The quotes' store: the only place with SQL for quote intents and receipts, the per-process
 * memories the quote path answers from (scopes, API keys), and the insert that re-checks both,
 * which is what makes those memories safe. Verbs (create-quote.ts and its callers) read as flow.
 *
 * To add a field to the receipt: the Prisma schema and a migration, `quoteReceipts` below, the
 * response schema (schemas.ts) and the view (quote-views.ts). Inserts and reads follow the map.
 */

// ---------------------------------------------------------------------------------------------
// Rows and their column maps

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
};

export type StoredQuote = { intent: QuoteIntentRow; receipt: QuoteReceiptRow };

const quoteIntents = new Table<QuoteIntentRow>('quote_intents', {
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
  createdAt: ['created_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
});

/** `computation` is `json`, not `jsonb`: a receipt's evidence is kept byte for byte as written. */
const quoteReceipts = new Table<QuoteReceiptRow>('quote_receipts', {
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
});

// ---------------------------------------------------------------------------------------------
// Reading quotes

const SELECT_QUOTE = `SELECT ${quoteIntents.selectList('qi')}, ${quoteReceipts.jsonObject('r')} AS receipt
     FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id`;

const FIND_BY_KEY = new Statement<{ key: QuoteKey }>(
  (sql) => `${SELECT_QUOTE}
     WHERE qi.environment_id = ${sql.param('key', 'environmentId', 'uuid')}
       AND qi.idempotency_scope = ${sql.param('key', 'idempotencyScope', 'text')}
       AND qi.idempotency_key = ${sql.param('key', 'idempotencyKey', 'text')}`,
);
const FIND_BY_ID = new Statement<{ key: { id: string } }>((sql) => `${SELECT_QUOTE} WHERE qi.id = ${sql.param('key', 'id', 'uuid')}`);
const FIND_BY_REQUEST = new Statement<{ key: { requestId: string } }>(
  (sql) => `${SELECT_QUOTE} WHERE qi.request_correlation_id = ${sql.param('key', 'requestId', 'text')} LIMIT 1`,
);

export type QuoteKey = { environmentId: string; idempotencyScope: string; idempotencyKey: string };

type QuoteJoinRow = QuoteIntentRow & { receipt: Record<string, unknown> };

function toStoredQuote(row: QuoteJoinRow | undefined): StoredQuote | null {
  if (!row) return null;
  const { receipt, ...intent } = row;
  return { intent, receipt: quoteReceipts.fromJson(receipt) };
}

/** The intent an idempotency key names, with its receipt: one indexed read. */
export async function findQuoteByKey(db: DbOrTx, key: QuoteKey): Promise<StoredQuote | null> {
  const [row] = await sqlRows<QuoteJoinRow>(db, FIND_BY_KEY.text, FIND_BY_KEY.values({ key }));
  return toStoredQuote(row);
}

/** A quote by its intent id, or (`byRequestToo`) by the id of the request that created it. */
export async function findQuote(db: DbOrTx, id: string, options: { byRequestToo?: boolean } = {}): Promise<StoredQuote | null> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const [byId] = uuid ? await sqlRows<QuoteJoinRow>(db, FIND_BY_ID.text, FIND_BY_ID.values({ key: { id } })) : [];
  if (byId || !options.byRequestToo) return toStoredQuote(byId);
  const [byRequest] = await sqlRows<QuoteJoinRow>(db, FIND_BY_REQUEST.text, FIND_BY_REQUEST.values({ key: { requestId: id } }));
  return toStoredQuote(byRequest);
}

/** The statuses that end in `expired` once their `expiresAt` passes (docs/quote-lifecycle.md). */
export const EXPIRING_STATUSES = ['succeeded', 'requires_input'] as const;

// An intent's status as it reads at $7 (lib/quotes/expire-quote-intents.ts: asOf), swept or not.
const STATUS_AS_OF = `CASE WHEN qi.status IN (${EXPIRING_STATUSES.map((s) => `'${s}'`).join(', ')}) AND qi.expires_at <= $7::timestamptz
  THEN 'expired' ELSE qi.status::text END`;

export type BusinessQuotesQuery = { environment?: 'test' | 'live'; status?: BusinessQuote['status']; limit: number; cursor?: string };

/**
 * A business's quotes, newest first, keyset-paginated by (created_at, id). Reads only the
 * receipt's total and first line's label, never its whole computation.
 */
export async function listQuotesOfBusiness(db: DbOrTx, businessId: string, query: BusinessQuotesQuery, now: Date) {
  const [cursorTime, cursorId] = query.cursor ? query.cursor.split('|') : [null, null];
  const rows = await sqlRows<Omit<BusinessQuote, 'createdAt'> & { createdAt: Date }>(
    db,
    `SELECT qi.id::text AS id, e.kind::text AS environment, qi.source::text AS source, ${STATUS_AS_OF} AS status,
        qi.inputs->>'offeringId' AS "offeringId",
        r.computation->'lineItems'->0->>'label' AS "offeringLabel",
        (r.computation->>'totalMinor')::bigint::float8 AS "totalMinor",
        r.computation->>'currency' AS currency,
        v.number AS "bookVersionNumber", qi.created_at AS "createdAt"
       FROM quote_intents qi
       JOIN environments e ON e.id = qi.environment_id
       LEFT JOIN quote_receipts r ON r.quote_intent_id = qi.id
       LEFT JOIN book_versions v ON v.id = qi.book_version_id
      WHERE qi.business_id = $1::uuid
        AND ($2::text IS NULL OR e.kind::text = $2::text)
        AND ($3::text IS NULL OR ${STATUS_AS_OF} = $3::text)
        AND ($4::timestamptz IS NULL OR (qi.created_at, qi.id) < ($4::timestamptz, $5::uuid))
      ORDER BY qi.created_at DESC, qi.id DESC
      LIMIT $6::int`,
    [businessId, query.environment ?? null, query.status ?? null, cursorTime, cursorId, query.limit + 1, now],
  );
  return timeIdPage(rows, query.limit);
}

// ---------------------------------------------------------------------------------------------
// What a trace shows besides the quote

/** The quote's pinned version, book, creating request, environment, and its events with their deliveries. */
export async function readTraceOf(db: DbOrTx, stored: QuoteIntentRow) {
  const [version, book, request, environment, events] = await Promise.all([
    stored.bookVersionId
      ? db.bookVersion.findUnique({ where: { id: stored.bookVersionId }, select: { id: true, number: true, artifactHash: true } })
      : null,
    db.book.findUnique({ where: { id: stored.bookId }, select: { id: true, key: true, name: true } }),
    db.requestLog.findUnique({ where: { requestId: stored.requestCorrelationId } }),
    db.environment.findUnique({ where: { id: stored.environmentId }, select: { kind: true } }),
    db.outboxEvent.findMany({
      where: { subjectId: stored.id },
      orderBy: { seq: 'asc' },
      select: {
        id: true,
        type: true,
        createdAt: true,
        deliveries: {
          orderBy: { createdAt: 'asc' },
          select: {
            id: true,
            endpointId: true,
            endpoint: { select: { url: true, deletedAt: true } },
            status: true,
            attemptCount: true,
            nextAttemptAt: true,
            replayOfId: true,
            createdAt: true,
          },
        },
      },
    }),
  ]);
  return { version, book, request, environment, events };
}

/** The book a member quotes against, in the connected project, with its Live publication: one read. */
export async function readMemberBook(db: DbOrTx, where: { bookId: string; projectId: string; liveEnvironmentId: string }) {
  const book = await db.book.findFirst({
    where: { id: where.bookId, projectId: where.projectId },
    select: { id: true, publications: { where: { environmentId: where.liveEnvironmentId }, select: { bookVersionId: true } } },
  });
  return book && { bookId: book.id, publishedVersionId: book.publications[0]?.bookVersionId ?? null };
}

// ---------------------------------------------------------------------------------------------
// Expiry (docs/quote-lifecycle.md)

/** Marks every due intent expired; returns how many changed. */
export async function markDueExpired(db: DbOrTx, now: Date): Promise<number> {
  const { count } = await db.quoteIntent.updateMany({
    where: { status: { in: [...EXPIRING_STATUSES] }, expiresAt: { lte: now } },
    data: { status: 'expired', updatedAt: now },
  });
  return count;
}

// ---------------------------------------------------------------------------------------------
// Scopes: where a quote goes, read fresh or remembered

/** A scope as the store reads it: what the quote's insert re-checks, and any intent under the key. */
export type ScopeRead = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string | null;
  businessId: string;
  connected: boolean;
  publishedVersionId: string | null;
  existingIntentId: string | null;
};

/** One round trip: the key's project's book, the connection, the publication, any intent under the key. */
export async function readApiScope(
  db: DbOrTx,
  principal: Pick<ApiKeyPrincipal, 'workspaceId' | 'projectId' | 'environmentId'>,
  request: { businessId: string; bookId: string },
  idempotency: { scope: string; key: string | undefined },
): Promise<ScopeRead> {
  const [row] = await sqlRows<{ bookId: string | null; connected: boolean; publishedVersionId: string | null; existingIntentId: string | null }>(
    db,
    `SELECT b.id::text AS "bookId",
       EXISTS (SELECT 1 FROM connections c WHERE c.business_id = $1::uuid
               AND c.project_id = $2::uuid AND c.status = 'active') AS connected,
       (SELECT p.book_version_id::text FROM publications p
         WHERE p.book_id = b.id AND p.environment_id = $3::uuid) AS "publishedVersionId",
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = $3::uuid
         AND qi.idempotency_scope = $4::text AND qi.idempotency_key = $5::text) AS "existingIntentId"
     FROM (SELECT 1) AS one
     LEFT JOIN books b ON b.id = $6::uuid AND b.project_id = $2::uuid`,
    [request.businessId, principal.projectId, principal.environmentId, idempotency.scope, idempotency.key ?? null, request.bookId],
  );
  return { ...row, workspaceId: principal.workspaceId, projectId: principal.projectId, environmentId: principal.environmentId, businessId: request.businessId };
}

/** The business's active connection, its project's Live environment and primary book, its publication. */
export async function readPublicScope(db: DbOrTx, businessId: string, idempotencyKey?: string): Promise<ScopeRead | null> {
  const [row] = await sqlRows<Omit<ScopeRead, 'businessId' | 'connected'>>(
    db,
    `SELECT pr.id::text AS "projectId", pr.workspace_id::text AS "workspaceId", e.id::text AS "environmentId",
       pr.primary_book_id::text AS "bookId", pub.book_version_id::text AS "publishedVersionId",
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = e.id
         AND qi.idempotency_scope = $1::text AND qi.idempotency_key = $2::text) AS "existingIntentId"
     FROM connections c
     JOIN projects pr ON pr.id = c.project_id
     JOIN environments e ON e.project_id = pr.id AND e.kind = 'live'
     LEFT JOIN publications pub ON pub.book_id = pr.primary_book_id AND pub.environment_id = e.id
     WHERE c.business_id = $3::uuid AND c.status = 'active'
     LIMIT 1`,
    [`public:${businessId}`, idempotencyKey ?? null, businessId],
  );
  return row ? { ...row, businessId, connected: true } : null;
}

// Per process, bounded; an entry lives until a write finds it stale or it is pushed out.
const rememberedScopes = new LRUCache<string, object>({ max: 10_000 });

/**
 * A scope from memory unless `fresh`, else read and (when something is published) remembered.
 * Safe because insertQuote re-checks the scope in its own statement (connection, publication,
 * primary book) and answers `scope_changed` when anything moved; the caller then asks `fresh`.
 */
export async function rememberedScope<S extends { publishedVersionId: string | null; existingIntentId?: string | null }>(
  key: string,
  fresh: boolean,
  read: () => Promise<S>,
): Promise<S> {
  if (!fresh) {
    const known = rememberedScopes.get(key) as S | undefined;
    if (known) return known;
  }
  rememberedScopes.delete(key);
  const scope = await read();
  // Nothing published yet: ask again next time rather than answer from memory.
  if (scope.publishedVersionId) rememberedScopes.set(key, { ...scope, existingIntentId: undefined });
  return scope;
}

// ---------------------------------------------------------------------------------------------
// API keys taken from memory for a quote

/** Keys handed out from memory and not yet confirmed by a quote's insert. */
const unconfirmedKeys = new WeakMap<ApiKeyPrincipal, { confirmed: boolean }>();

/**
 * Authentication for POST /v1/quotes: a key this process found valid recently is taken from
 * memory, without a query, because the quote's insert re-checks it (insertQuote's `key_holds`).
 * `confirm` gives the principal the answer may go out under: the same one when the insert
 * confirmed the key, else the key checked afresh (a request that failed before its insert, or a
 * key revoked a moment ago, still gets the database's verdict).
 */
export async function authenticateQuoteKey(
  db: DbOrTx,
  authorization: string | null,
  now: Date,
): Promise<{ principal: ApiKeyPrincipal; confirm?: () => Promise<ApiKeyPrincipal> }> {
  const remembered = rememberedApiKey(authorization, now);
  // Read from the database just now: nothing left to confirm.
  if (!remembered) return { principal: await authenticateApiKey(db, authorization, now) };
  const check = { confirmed: false };
  unconfirmedKeys.set(remembered, check);
  return {
    principal: remembered,
    confirm: async () => (check.confirmed ? remembered : authenticateApiKey(db, authorization, now)),
  };
}

// ---------------------------------------------------------------------------------------------
// Auditing receipts

export type AuditFilter = { since: Date | null; businessId: string | null };
/** A receipt with what recomputing it needs: its intent's stored inputs. */
export type AuditRow = QuoteReceiptRow & { inputs: unknown };

const AUDIT_WHERE = (sql: StatementBuilder<{ filter: AuditFilter }>) =>
  `WHERE (${sql.param('filter', 'since', 'timestamptz')} IS NULL OR r.created_at >= ${sql.param('filter', 'since', 'timestamptz')})
     AND (${sql.param('filter', 'businessId', 'uuid')} IS NULL OR qi.business_id = ${sql.param('filter', 'businessId', 'uuid')})`;
const COUNT_AUDITED = new Statement<{ filter: AuditFilter }>(
  (sql) => `SELECT count(*)::int AS count FROM quote_receipts r JOIN quote_intents qi ON qi.id = r.quote_intent_id ${AUDIT_WHERE(sql)}`,
);
const READ_AUDITED = new Statement<{ filter: AuditFilter }>(
  (sql) => `SELECT ${quoteReceipts.selectList('r')}, qi.inputs FROM quote_receipts r JOIN quote_intents qi ON qi.id = r.quote_intent_id ${AUDIT_WHERE(sql)}`,
);

export async function countReceipts(db: DbOrTx, filter: AuditFilter): Promise<number> {
  const [row] = await sqlRows<{ count: number }>(db, COUNT_AUDITED.text, COUNT_AUDITED.values({ filter }));
  return row.count;
}

/** Every receipt the filter selects, with its inputs, in batches (a server-side cursor, no order). */
export async function readReceiptsInBatches(db: DbOrTx, filter: AuditFilter, batchSize: number, onBatch: (rows: AuditRow[]) => Promise<void> | void) {
  await sqlBatches<AuditRow>(db, READ_AUDITED.text, READ_AUDITED.values({ filter }), batchSize, onBatch);
}

// ---------------------------------------------------------------------------------------------
// Writing a quote

export type QuoteGuards = {
  /** The caller's API key, re-checked by the insert when it came from memory. */
  apiKey: ApiKeyPrincipal | null;
  /** The public surface serves the project's primary book only. */
  bookMustBePrimary: boolean;
};

type InsertBindings = {
  intent: QuoteIntentRow;
  receipt: QuoteReceiptRow;
  event: OutboxEventRow;
  guard: { apiKeyId: string | null; bookMustBePrimary: boolean };
};

/**
 * Intent, receipt, outcome event and its webhook deliveries in one statement, written only while
 * the API key (when taken from memory) and the scope still hold: what the memories above rely on.
 */
const INSERT_QUOTE = new Statement<InsertBindings>((sql) => {
  const intent = (field: keyof QuoteIntentRow & string, type: Parameters<typeof sql.param>[2]) => sql.param('intent', field, type);
  const keyId = sql.param('guard', 'apiKeyId', 'uuid');
  return `WITH key_holds AS (
       SELECT 1 WHERE ${keyId} IS NULL OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${keyId}
         AND k.status <> 'revoked' AND (k.revoked_at IS NULL OR k.revoked_at > ${intent('createdAt', 'timestamptz')}))
     ), scope_holds AS (
       SELECT 1 FROM key_holds WHERE EXISTS (SELECT 1 FROM connections c WHERE c.business_id = ${intent('businessId', 'uuid')}
           AND c.project_id = ${intent('projectId', 'uuid')} AND c.status = 'active')
         AND (SELECT p.book_version_id FROM publications p WHERE p.book_id = ${intent('bookId', 'uuid')}
           AND p.environment_id = ${intent('environmentId', 'uuid')}) IS NOT DISTINCT FROM ${intent('bookVersionId', 'uuid')}
         AND (NOT ${sql.param('guard', 'bookMustBePrimary', 'boolean')}
           OR EXISTS (SELECT 1 FROM projects pr WHERE pr.id = ${intent('projectId', 'uuid')} AND pr.primary_book_id = ${intent('bookId', 'uuid')}))
     ), signer_holds AS (
       SELECT 1 FROM scope_holds WHERE EXISTS (SELECT 1 FROM receipt_signing_keys s
         WHERE s.kid = ${sql.param('receipt', 'signatureKid', 'text')} AND s.retired_at IS NULL)
     ), new_intent AS (
       ${sql.insert(quoteIntents, 'intent', { from: 'signer_holds' })}
       ON CONFLICT (environment_id, idempotency_scope, idempotency_key) DO NOTHING
       RETURNING id
     ), new_receipt AS (
       ${sql.insert(quoteReceipts, 'receipt', { from: 'new_intent' })}
     ), ${eventCtes(sql, 'event', { from: 'new_intent' })}
     SELECT EXISTS (SELECT 1 FROM new_intent) AS inserted, EXISTS (SELECT 1 FROM key_holds) AS key_holds,
       EXISTS (SELECT 1 FROM scope_holds) AS scope_holds, EXISTS (SELECT 1 FROM signer_holds) AS signer_holds`;
});

export type InsertOutcome = 'inserted' | 'key_taken' | 'scope_changed' | 'key_refused' | 'signer_retired';

/**
 * Writes a quote: intent, receipt, its outcome event and deliveries, together or not at all.
 * `key_taken`: another request committed an intent under the same idempotency key first;
 * `signer_retired`: the receipt's signing key was rotated out since this process loaded it.
 */
export async function insertQuote(db: DbOrTx, quote: StoredQuote, event: OutboxEventRow, guards: QuoteGuards): Promise<InsertOutcome> {
  const keyCheck = guards.apiKey ? unconfirmedKeys.get(guards.apiKey) : undefined;
  const [written] = await sqlRows<{ inserted: boolean; key_holds: boolean; scope_holds: boolean; signer_holds: boolean }>(
    db,
    INSERT_QUOTE.text,
    INSERT_QUOTE.values({
      ...quote,
      event,
      guard: { apiKeyId: keyCheck ? guards.apiKey!.keyId : null, bookMustBePrimary: guards.bookMustBePrimary },
    }),
  );
  if (!written.key_holds) return 'key_refused';
  if (!written.scope_holds) return 'scope_changed';
  if (keyCheck) keyCheck.confirmed = true;
  if (!written.signer_holds) return 'signer_retired';
  return written.inserted ? 'inserted' : 'key_taken';
}
