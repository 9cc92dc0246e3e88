import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { Statement } from '../../db/statement';
import { timeIdPage } from '../../db/cursors';
import type { BusinessQuote } from '../schemas';
import { PRICED_CURRENCY_SQL, PRICED_TOTAL_MINOR_SQL, type QuoteIntentRow, type StoredQuote, quoteIntents, quoteReceipts } from './rows';

// The quotes' store (lib/quotes/store.ts): reading quotes.

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

/** One row of a business's quotes: its offering is named by the verb, from the version that priced it. */
export type BusinessQuoteRow = Omit<BusinessQuote, 'createdAt' | 'offeringLabel'> & { createdAt: Date; bookVersionId: string | null };

/**
 * A business's quotes, newest first, keyset-paginated by (created_at, id). Reads a quote's total
 * from its intent, and from its receipt's computation only for quotes older than the intent's copies.
 */
export async function listQuotesOfBusiness(db: DbOrTx, businessId: string, query: BusinessQuotesQuery, now: Date) {
  const [cursorTime, cursorId] = query.cursor ? query.cursor.split('|') : [null, null];
  const rows = await sqlRows<BusinessQuoteRow>(
    db,
    `SELECT qi.id::text AS id, e.kind::text AS environment, qi.source::text AS source, ${STATUS_AS_OF} AS status,
        qi.inputs->>'offeringId' AS "offeringId",
        qi.book_version_id::text AS "bookVersionId",
        ${PRICED_TOTAL_MINOR_SQL}::float8 AS "totalMinor",
        ${PRICED_CURRENCY_SQL} AS currency,
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

export type EnvironmentQuotesQuery = {
  status?: BusinessQuote['status'];
  offeringId?: string;
  /** ISO times, both ends included (as the request log's `from` and `to`). */
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
};

type EnvironmentQuotesBindings = {
  q: { environmentId: string; status: string | null; offeringId: string | null; from: Date | null; to: Date | null; cursorTime: Date | null; cursorId: string | null; take: number; now: Date };
};

const LIST_OF_ENVIRONMENT = new Statement<EnvironmentQuotesBindings>((sql) => {
  const now = sql.param('q', 'now', 'timestamptz');
  // The intent's status as it reads at `now`, swept or not (expire-quote-intents.ts: asOf).
  const status = `CASE WHEN qi.status IN (${EXPIRING_STATUSES.map((s) => `'${s}'`).join(', ')}) AND qi.expires_at <= ${now}
    THEN 'expired' ELSE qi.status::text END`;
  const cursorTime = sql.param('q', 'cursorTime', 'timestamptz');
  return `${SELECT_QUOTE}
     WHERE qi.environment_id = ${sql.param('q', 'environmentId', 'uuid')}
       AND (${sql.param('q', 'status', 'text')} IS NULL OR ${status} = ${sql.param('q', 'status', 'text')})
       AND (${sql.param('q', 'offeringId', 'text')} IS NULL OR qi.inputs->>'offeringId' = ${sql.param('q', 'offeringId', 'text')})
       AND (${sql.param('q', 'from', 'timestamptz')} IS NULL OR qi.created_at >= ${sql.param('q', 'from', 'timestamptz')})
       AND (${sql.param('q', 'to', 'timestamptz')} IS NULL OR qi.created_at <= ${sql.param('q', 'to', 'timestamptz')})
       AND (${cursorTime} IS NULL OR (qi.created_at, qi.id) < (${cursorTime}, ${sql.param('q', 'cursorId', 'uuid')}))
     ORDER BY qi.created_at DESC, qi.id DESC
     LIMIT ${sql.param('q', 'take', 'int')}`;
});

/**
 * An environment's quotes with their receipts, newest first, keyset-paginated by (created_at,
 * id) on the (environment_id, created_at, id) index. Statuses read as of `now`, as `findQuote`'s
 * callers read them (asOf).
 */
export async function listQuotesOfEnvironment(db: DbOrTx, environmentId: string, query: EnvironmentQuotesQuery, now: Date) {
  const [cursorTime, cursorId] = query.cursor ? query.cursor.split('|') : [null, null];
  const at = (time: string | null | undefined) => (time ? new Date(time) : null);
  const bindings = {
    q: {
      environmentId,
      status: query.status ?? null,
      offeringId: query.offeringId ?? null,
      from: at(query.from),
      to: at(query.to),
      cursorTime: at(cursorTime),
      cursorId,
      take: query.limit + 1,
      now,
    },
  };
  const rows = await sqlRows<QuoteJoinRow>(db, LIST_OF_ENVIRONMENT.text, LIST_OF_ENVIRONMENT.values(bindings));
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { page: page.map((row) => toStoredQuote(row)!), nextCursor };
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
