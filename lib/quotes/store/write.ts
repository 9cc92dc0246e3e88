import type { ApiKeyPrincipal } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import { GroupCommit } from '../../db/group-commit';
import { runsOnPool, sqlRows } from '../../db/sql';
import { BatchStatement, type ColumnType, type SerializedRow, type StatementBuilder } from '../../db/statement';
import { eventCtes, type OutboxEventRow } from '../../events/store';
import { spendPointsSql } from '../../ratelimit/counters';
import { settleSpend, type KeyedLimit } from '../../ratelimit/registry';
import { signsAt } from '../../receipts/store';
import { type QuoteIntentRow, type QuoteReceiptRow, type StoredQuote, quoteIntents, quoteReceipts } from './rows';

// The quotes' store (lib/quotes/store.ts): writing a quote.

export type QuoteGuards = {
  /** The caller's API key, re-checked by the insert when it came from memory. */
  apiKey: ApiKeyPrincipal | null;
  /** The public surface serves the project's primary book only. */
  bookMustBePrimary: boolean;
  /** The version the scope found published: the quote is written only while it still is. */
  publishedVersionId: string | null;
  /** The experiment the scope found running (null: none); undefined: not re-checked (members' quotes). */
  experimentId?: string | null;
  /** How many of its arms the scope found paused: a pause since (they only add up) makes the scope stale too. */
  experimentPauses?: number;
  /** A rate limit the quote counts against, spent by the insert itself: no statement of its own. */
  limit?: KeyedLimit;
};

type InsertBindings = {
  intent: QuoteIntentRow;
  receipt: QuoteReceiptRow;
  event: OutboxEventRow;
  guard: { apiKeyId: string | null; bookMustBePrimary: boolean; publishedVersionId: string | null; checkExperiment: boolean; experimentId: string | null; experimentPauses: number };
  /** The rate limit's counter (null: none), its points and window, and the time the spend is made at (epoch ms). */
  limit: { counterKey: string | null; points: number; windowMs: number; nowMs: number };
};

/**
 * Intents, receipts, outcome events and their webhook deliveries of a batch of quotes in one
 * statement, each quote written only while its API key (when taken from memory) and its scope
 * (the publication's version and running experiment, as the scope found them) still hold: what the memories above rely on. One row out per quote, in the batch's order.
 * `limited`: for quotes under a rate limit (public quotes: per business), each new quote spends
 * its point here too, once its key, scope and signer hold, and is written only within the limit:
 * the counters of the batch are taken in key order, before any intent, as
 * lib/ratelimit/counters.ts takes them. Quotes without one use the statement without those steps:
 * a batch is written one at a time, so every step of its statement is every quote's wait.
 */
const insertQuotes = (limited: boolean) => new BatchStatement<InsertBindings>((sql) => {
  const intent = (field: keyof QuoteIntentRow & string, type: Parameters<typeof sql.param>[2]) => sql.param('intent', field, type);
  const keyId = sql.param('guard', 'apiKeyId', 'uuid');
  const written = `${intent('id', 'uuid')} IN (SELECT id FROM new_intent)`;
  return `key_holds AS (
       SELECT i.n FROM input i WHERE ${keyId} IS NULL OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${keyId}
         AND k.status <> 'revoked' AND (k.revoked_at IS NULL OR k.revoked_at > ${intent('createdAt', 'timestamptz')}))
     ), scope_holds AS (
       SELECT i.n FROM input i JOIN key_holds USING (n)
       -- Each check is a scalar subquery, looked up by its index for each quote: as EXISTS, the
       -- generic plan joined the batch to every active connection (and hashed every project),
       -- a cost that grew with the service's businesses (2 ms a quote at 661 of them).
       WHERE (SELECT true FROM connections c WHERE c.business_id = ${intent('businessId', 'uuid')}
           AND c.project_id = ${intent('projectId', 'uuid')} AND c.status = 'active' LIMIT 1) IS NOT NULL
         -- The publication as the scope found it, read once: its version, and (surfaces in
         -- experiments) its running experiment and how many of its arms are paused. No row reads
         -- as nulls and no pauses, as an unpublished book's scope has them.
         AND (SELECT p.book_version_id IS NOT DISTINCT FROM ${sql.param('guard', 'publishedVersionId', 'uuid')}
               AND (NOT ${sql.param('guard', 'checkExperiment', 'boolean')}
                 OR (p.experiment_id IS NOT DISTINCT FROM ${sql.param('guard', 'experimentId', 'uuid')}
                   AND (SELECT count(*) FROM jsonb_array_elements(coalesce(p.experiment->'arms', '[]'::jsonb)) a WHERE a->>'pausedAt' IS NOT NULL)
                     = ${sql.param('guard', 'experimentPauses', 'int')}))
             FROM (SELECT 1) AS one LEFT JOIN publications p
               ON p.book_id = ${intent('bookId', 'uuid')} AND p.environment_id = ${intent('environmentId', 'uuid')})
         AND (NOT ${sql.param('guard', 'bookMustBePrimary', 'boolean')}
           OR (SELECT pr.primary_book_id FROM projects pr WHERE pr.id = ${intent('projectId', 'uuid')}) IS NOT DISTINCT FROM ${intent('bookId', 'uuid')})
     ), signer_holds AS (
       SELECT i.n FROM input i JOIN scope_holds USING (n) WHERE EXISTS (SELECT 1 FROM receipt_signing_keys s
         WHERE s.kid = ${sql.param('receipt', 'signatureKid', 'text')} AND ${signsAt('s', intent('createdAt', 'timestamptz'))})
     ), ${limited ? limitSteps(sql) : 'limit_holds AS (SELECT n FROM signer_holds)'}, new_intent AS (
       ${sql.insert(quoteIntents, 'intent', { from: 'input i JOIN limit_holds USING (n) ORDER BY i.n' })}
       ON CONFLICT (environment_id, idempotency_scope, idempotency_key) DO NOTHING
       RETURNING id
     ), new_receipt AS (
       ${sql.insert(quoteReceipts, 'receipt', { from: `input i WHERE ${written} ORDER BY i.n` })}
     ), ${eventCtes(sql, 'event', { from: `input i WHERE ${written} ORDER BY i.n` })}
     SELECT ${written} AS inserted, i.n IN (SELECT n FROM key_holds) AS key_holds,
       i.n IN (SELECT n FROM scope_holds) AS scope_holds, i.n IN (SELECT n FROM signer_holds) AS signer_holds,
       ${limited ? 'p.position::int' : 'NULL::int'} AS limit_position, ${limited ? 'p.expire' : 'NULL::text'} AS limit_expire
     FROM input i${limited ? ' LEFT JOIN limit_positions p USING (n)' : ''} ORDER BY i.n`;
});

/** A limited batch's steps: each new quote's spend (`limit_positions`: where it landed), and `limit_holds`, the quotes within their limits. */
function limitSteps(sql: StatementBuilder<InsertBindings>): string {
  const intent = (field: keyof QuoteIntentRow & string, type: ColumnType) => sql.param('intent', field, type);
  const counterKey = sql.param('limit', 'counterKey', 'text');
  const nowMs = sql.param('limit', 'nowMs', 'bigint');
  return `limit_counted AS (
       -- The quotes a rate limit counts: new ones, not a replay of a key already written.
       SELECT i.n, ${counterKey} AS key FROM input i JOIN signer_holds USING (n)
       WHERE ${counterKey} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM quote_intents q WHERE q.environment_id = ${intent('environmentId', 'uuid')}
         AND q.idempotency_scope = ${intent('idempotencyScope', 'text')} AND q.idempotency_key = ${intent('idempotencyKey', 'text')})
     ), limit_spent AS (
       ${spendPointsSql(
         `SELECT c.key, count(*)::int, max(${nowMs}) + max(${sql.param('limit', 'windowMs', 'bigint')})
          FROM limit_counted c JOIN input i USING (n) GROUP BY c.key ORDER BY c.key`,
         `(SELECT max(${nowMs}) FROM input i)`,
       )}
     ), limit_positions AS (
       -- Each quote's place among its window's spends: the batch's spends of a counter go in its order.
       SELECT c.n, s.expire, s.points - count(*) OVER (PARTITION BY s.key) + row_number() OVER (PARTITION BY s.key ORDER BY c.n) AS position
       FROM limit_counted c JOIN limit_spent s USING (key)
     ), limit_holds AS (
       SELECT i.n FROM input i JOIN signer_holds USING (n) LEFT JOIN limit_positions p USING (n)
       WHERE p.position IS NULL OR p.position <= ${sql.param('limit', 'points', 'int')}
     )`;
}
const INSERT_QUOTES = { unlimited: insertQuotes(false), limited: insertQuotes(true) };

type WrittenRow = {
  inserted: boolean;
  key_holds: boolean;
  scope_holds: boolean;
  signer_holds: boolean;
  /** Its place among its rate limit's spends, and the window's end (epoch ms); null when it spent nothing. */
  limit_position: number | null;
  limit_expire: string | null;
};

/** A quote as its batch sends it, made when the quote is submitted: its row and its idempotency key. */
type QueuedQuote = { row: SerializedRow; key: string };

/**
 * Writes quotes in one statement. The batch goes in idempotency-key order, so that two batches
 * waiting on each other's keys (the same key sent twice at once) wait in one order and never
 * deadlock.
 */
async function writeQuotes(db: DbOrTx, statement: BatchStatement<InsertBindings>, batch: QueuedQuote[]): Promise<WrittenRow[]> {
  const order = batch.map((_, index) => index).sort((a, b) => (batch[a].key < batch[b].key ? -1 : batch[a].key > batch[b].key ? 1 : 0));
  const rows = await sqlRows<WrittenRow>(db, statement.text, statement.valuesOf(order.map((index) => batch[index].row)));
  const written = new Array<WrittenRow>(batch.length);
  order.forEach((index, position) => (written[index] = rows[position]));
  return written;
}

/**
 * One batch of quotes in PostgreSQL per process at a time; the quotes that arrive meanwhile wait
 * for the next. Two at once halved the batches and cost each quote more CPU on both sides, for
 * lower throughput at 8 and 32 connections (docs/performance.md, "Changes and what they bought").
 * At most 16 quotes a batch: a receipt of a 10,000-rule book is ~1.25 MB, and the batch's
 * parameter holds them all. Per client (its pool) and statement; inside a transaction each quote is written alone.
 */
const groupCommits = {
  unlimited: GroupCommit.perClient((db: DbOrTx, batch: QueuedQuote[]) => writeQuotes(db, INSERT_QUOTES.unlimited, batch), { maxInFlight: 1, maxRows: 16 }),
  limited: GroupCommit.perClient((db: DbOrTx, batch: QueuedQuote[]) => writeQuotes(db, INSERT_QUOTES.limited, batch), { maxInFlight: 1, maxRows: 16 }),
};

/**
 * Each quote's row is serialised as it is submitted, while the batch before it is in the
 * database: the next batch then goes out as soon as that one ends.
 */
function writeQuote(db: DbOrTx, bindings: InsertBindings): Promise<WrittenRow> {
  const { intent } = bindings;
  const kind = bindings.limit.counterKey === null ? 'unlimited' : 'limited';
  const quote = { row: INSERT_QUOTES[kind].row(bindings), key: `${intent.environmentId} ${intent.idempotencyScope} ${intent.idempotencyKey}` };
  if (!runsOnPool(db)) return writeQuotes(db, INSERT_QUOTES[kind], [quote]).then(([written]) => written);
  return groupCommits[kind](db).submit(quote);
}

export type InsertOutcome = 'inserted' | 'key_taken' | 'scope_changed' | 'key_refused' | 'signer_retired';

/**
 * Writes a quote: intent, receipt, its outcome event and deliveries, together or not at all,
 * in one statement and one commit with the other quotes of this process written at that moment.
 * `key_taken`: another request committed an intent under the same idempotency key first;
 * `signer_retired`: the receipt's signing key was rotated out since this process loaded it.
 * Past its rate limit, a quote is not written: 429 `rate_limited`.
 */
export async function insertQuote(db: DbOrTx, quote: StoredQuote, event: OutboxEventRow, guards: QuoteGuards): Promise<InsertOutcome> {
  // A key taken from memory is re-checked by the insert; one read from the database just now is not.
  const keyCheck = guards.apiKey?.fromMemory;
  const nowMs = Date.now();
  const written = await writeQuote(db, {
    ...quote,
    event,
    guard: {
      apiKeyId: keyCheck ? guards.apiKey!.keyId : null,
      bookMustBePrimary: guards.bookMustBePrimary,
      publishedVersionId: guards.publishedVersionId,
      checkExperiment: guards.experimentId !== undefined,
      experimentId: guards.experimentId ?? null,
      experimentPauses: guards.experimentPauses ?? 0,
    },
    limit: { counterKey: guards.limit?.counterKey ?? null, points: guards.limit?.points ?? 0, windowMs: guards.limit?.windowMs ?? 0, nowMs },
  });
  if (!written.key_holds) return 'key_refused';
  if (!written.scope_holds) return 'scope_changed';
  if (keyCheck) keyCheck.confirmed = true;
  if (!written.signer_holds) return 'signer_retired';
  if (guards.limit && written.limit_position !== null) {
    settleSpend(guards.limit, { position: written.limit_position, expireMs: Number(written.limit_expire) }, nowMs);
  }
  return written.inserted ? 'inserted' : 'key_taken';
}
