import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { Statement, Table, type StatementBuilder } from '../db/statement';
import type { EventType } from './event-types';

/** An outbox event as stored; `data` is the payload every delivery of it sends. */
export type OutboxEventRow = {
  id: string;
  type: EventType;
  version: number;
  workspaceId: string;
  projectId: string | null;
  environmentId: string | null;
  businessId: string | null;
  subjectId: string | null;
  data: unknown;
  /** Whose computation and experiment `data` leaves out (a quote's outcome event): see payloadWithoutReceiptParts. */
  receiptId: string | null;
  createdAt: Date;
  /** Set by the statement that writes the event, which also fans it out. */
  dispatchedAt: Date | null;
};

export const outboxEvents = new Table<OutboxEventRow>('outbox_events', {
  id: ['id', 'uuid'],
  type: ['type', 'text'],
  version: ['version', 'int'],
  workspaceId: ['workspace_id', 'uuid'],
  projectId: ['project_id', 'uuid'],
  environmentId: ['environment_id', 'uuid'],
  businessId: ['business_id', 'uuid'],
  subjectId: ['subject_id', 'uuid'],
  data: ['data', 'json'],
  receiptId: ['receipt_id', 'uuid'],
  createdAt: ['created_at', 'timestamptz'],
  dispatchedAt: ['dispatched_at', 'timestamptz'],
});

/** A quote as an event payload carries it: the result with its receipt. */
type QuotePayload = { quoteReceipt: { computation: unknown; experiment?: unknown } };

/**
 * A quote's outcome event stores its payload without the receipt's computation (several KB) and
 * experiment (an arm's assignment, some 170 bytes), which the receipt row already holds: written
 * once instead of twice per quote, with `receiptId` naming the receipt. The keys stay in place,
 * null, so that the payload put back together (completePayload) serialises byte for byte as the
 * whole payload did; an event stored before the experiment was left out has it already, the same,
 * and a format-1 receipt has no `experiment` key to fill.
 */
export function payloadWithoutReceiptParts<T extends QuotePayload>(data: T): T {
  const { quoteReceipt } = data;
  return { ...data, quoteReceipt: { ...quoteReceipt, computation: null, ...('experiment' in quoteReceipt && { experiment: null }) } };
}

/** What a delivery's statement reads of an event's receipt (RECEIPT_PARTS_SQL, with the receipt joined as `r`). */
export type ReceiptParts = { receipt_id: string | null; receipt_computation: unknown; receipt_experiment: unknown };
export const RECEIPT_PARTS_SQL = 'e.receipt_id::text AS receipt_id, r.computation AS receipt_computation, r.experiment AS receipt_experiment';

/** The payload every delivery sends: as stored, with the receipt's parts back in place when they were left out. */
export function completePayload(data: unknown, { receipt_id, receipt_computation, receipt_experiment }: ReceiptParts): unknown {
  if (!receipt_id) return data;
  const quote = data as QuotePayload;
  const { quoteReceipt } = quote;
  // A receipt of format 1 has no `experiment` key: none is added.
  return { ...quote, quoteReceipt: { ...quoteReceipt, computation: receipt_computation, ...('experiment' in quoteReceipt && { experiment: receipt_experiment ?? null }) } };
}

/**
 * The statement part that fans events out into webhook deliveries: one per enabled endpoint of
 * the event's environment whose filter accepts its type. `events` names a CTE (alias `e`) with
 * the columns id, type and environment_id; `at` is the SQL expression for the deliveries' timestamps.
 * Writers put it in the statement that writes the event, so an event is born dispatched.
 */
export function fanOutSql(events: string, at: string): string {
  return `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), w.id, e.id, e.type, ${at}, ${at}, ${at}
       FROM ${events} e JOIN webhook_endpoints w ON w.environment_id = e.environment_id
       WHERE w.status = 'enabled' AND w.deleted_at IS NULL
         AND (cardinality(w.event_types) = 0 OR e.type = ANY (w.event_types))
       RETURNING 1`;
}

/**
 * The CTEs `new_event` and `new_deliveries` that write the event bound as `group` and its
 * deliveries: the one way an event is written, alone (insertEvent) or inside another
 * statement (a batch of quotes'). `from` makes the event conditional on that relation having a
 * row (in a BatchStatement it names which rows of `input` have an event).
 */
export function eventCtes<B extends Record<string, object>, G extends keyof B & string>(
  sql: StatementBuilder<B>,
  group: G,
  options: { from?: string } = {},
): string {
  return `new_event AS (
       ${sql.insert(outboxEvents as unknown as Table<B[G]>, group, options)}
       RETURNING id, type, environment_id, created_at
     ), new_deliveries AS (
       ${fanOutSql('new_event', 'e.created_at')}
     )`;
}

const INSERT_EVENT = new Statement<{ event: OutboxEventRow }>(
  (sql) => `WITH ${eventCtes(sql, 'event')} SELECT (SELECT count(*) FROM new_deliveries)::int AS deliveries`,
);

/** Writes one event and its deliveries; returns how many deliveries were queued. */
export async function insertEvent(db: DbOrTx, event: OutboxEventRow): Promise<number> {
  const [row] = await sqlRows<{ deliveries: number }>(db, INSERT_EVENT.text, INSERT_EVENT.values({ event }));
  return row.deliveries;
}

/** An event as a delivery sends it, with its outbox position. */
export type StreamedEvent = { seq: string; id: string; type: string; version: number; createdAt: Date; businessId: string | null; data: unknown };

/** Events as their deliveries send them: the receipt joined for the computation a quote's event leaves out. */
const SELECT_EVENTS = `SELECT e.seq::text AS seq, e.id::text AS id, e.type, e.version, e.created_at AS "createdAt", e.business_id::text AS "businessId",
    e.data, ${RECEIPT_PARTS_SQL}
  FROM outbox_events e LEFT JOIN quote_receipts r ON r.id = e.receipt_id`;

type EventRowWithReceipt = StreamedEvent & ReceiptParts;

/** A row read with RECEIPT_PARTS_SQL, without those columns and with its payload complete. */
export function withCompletePayload<R extends ReceiptParts & { data: unknown }>({ receipt_id, receipt_computation, receipt_experiment, ...row }: R): Omit<R, keyof ReceiptParts> {
  return { ...row, data: completePayload(row.data, { receipt_id, receipt_computation, receipt_experiment }) };
}

function completed(row: EventRowWithReceipt): StreamedEvent {
  return withCompletePayload(row);
}

const EVENT_SQL = `${SELECT_EVENTS} WHERE e.id = $1::uuid AND e.environment_id = $2::uuid`;
const SUBJECTS_EVENTS_SQL = `${SELECT_EVENTS}
  WHERE e.subject_id = ANY($2::uuid[]) AND e.environment_id = $1::uuid AND e.created_at = $3::timestamptz ORDER BY e.seq`;

/** One event of an environment, its payload complete; null when it is not that environment's. */
export async function readEvent(db: DbOrTx, environmentId: string, eventId: string): Promise<StreamedEvent | null> {
  const [row] = await sqlRows<EventRowWithReceipt>(db, EVENT_SQL, [eventId, environmentId]);
  return row ? completed(row) : null;
}

/** The events about these subjects that one request wrote (stamped with its instant), oldest first. */
export async function readEventsOfSubjects(db: DbOrTx, environmentId: string, subjectIds: readonly string[], createdAt: Date): Promise<StreamedEvent[]> {
  return (await sqlRows<EventRowWithReceipt>(db, SUBJECTS_EVENTS_SQL, [environmentId, subjectIds, createdAt])).map(completed);
}

/** An event's place in the outbox, by which an event stream reads what follows it. */
export type EventPosition = { id: string; seq: string };

const NEWEST_EVENT_SQL = `SELECT id::text AS id, seq::text AS seq FROM outbox_events WHERE environment_id = $1::uuid ORDER BY seq DESC LIMIT 1`;
const EVENT_POSITION_SQL = `SELECT id::text AS id, seq::text AS seq FROM outbox_events WHERE id = $1::uuid AND environment_id = $2::uuid`;

/** The newest event of an environment (null when it has none): a stream with no `after` starts after it. */
export async function newestEventPosition(db: DbOrTx, environmentId: string): Promise<EventPosition | null> {
  const [row] = await sqlRows<EventPosition>(db, NEWEST_EVENT_SQL, [environmentId]);
  return row ?? null;
}

/** Where one event of an environment is; null when the id names no event of that environment. */
export async function eventPosition(db: DbOrTx, environmentId: string, eventId: string): Promise<EventPosition | null> {
  const [row] = await sqlRows<EventPosition>(db, EVENT_POSITION_SQL, [eventId, environmentId]);
  return row ?? null;
}

/** An event read for the streams of its environment. */
export type EnvironmentEvent = StreamedEvent & { environmentId: string };

// One statement for every environment a process streams: each one's next `limit` events after its
// own position (by the index on environment_id, seq), whatever the number of streams.
const STREAMS_EVENTS_SQL = `SELECT e.environment_id::text AS "environmentId", e.seq::text AS seq, e.id::text AS id, e.type, e.version,
    e.created_at AS "createdAt", e.business_id::text AS "businessId", e.data, ${RECEIPT_PARTS_SQL}
  FROM unnest($1::uuid[], $2::bigint[]) AS c(environment_id, after)
  CROSS JOIN LATERAL (
    SELECT * FROM outbox_events x WHERE x.environment_id = c.environment_id AND x.seq > c.after ORDER BY x.seq LIMIT $3::int
  ) e
  LEFT JOIN quote_receipts r ON r.id = e.receipt_id
  ORDER BY e.seq`;

/** For each environment, its events after its position, oldest first, at most `limit` each, payloads complete. */
export async function readEventsOfEnvironments(
  db: DbOrTx,
  positions: readonly { environmentId: string; afterSeq: string }[],
  limit: number,
): Promise<EnvironmentEvent[]> {
  if (positions.length === 0) return [];
  const rows = await sqlRows<EventRowWithReceipt & { environmentId: string }>(db, STREAMS_EVENTS_SQL, [
    positions.map((p) => p.environmentId),
    positions.map((p) => p.afterSeq),
    limit,
  ]);
  return rows.map((row) => ({ ...completed(row), environmentId: row.environmentId }));
}
