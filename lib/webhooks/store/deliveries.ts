import type { DbOrTx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import { fanOutSql } from '../../events/store';
import { afterTimeIdCursor, timeIdPage } from '../../db/cursors';
import type { DeliveryView } from '../schemas';
import { markLostAttemptsSql } from './sending';

/**
 * Webhook deliveries as the API shows them, and the writes around them that are not sending:
 * replays, test events, cancelling, the outbox dispatch, forwarding to Inngest, and the figures
 * of an endpoint's health.
 */

/** What a delivery's view (delivery-view.ts) reads of it. */
export const deliverySelect = {
  id: true,
  endpointId: true,
  eventId: true,
  eventType: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  replayOfId: true,
  canceledAt: true,
  createdAt: true,
  attempts: {
    orderBy: { number: 'asc' },
    select: { number: true, state: true, startedAt: true, latencyMs: true, responseStatus: true, responseExcerpt: true, requestHeaders: true, responseHeaders: true, error: true },
  },
} satisfies Prisma.WebhookDeliverySelect;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliverySelect }>;

const deliveryRefSelect = { id: true, endpointId: true, eventId: true, eventType: true, endpoint: { select: { workspaceId: true } } } satisfies Prisma.WebhookDeliverySelect;

/** A delivery as a replay repeats it, with the workspace that may manage it. */
export type DeliveryRef = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliveryRefSelect }>;

export type DeliveriesQuery = { endpointId?: string; eventId?: string; eventType?: string; status?: DeliveryView['status']; failing?: boolean; limit: number; cursor?: string };

export async function findDeliveryRef(db: DbOrTx, deliveryId: string): Promise<DeliveryRef | null> {
  return db.webhookDelivery.findUnique({ where: { id: deliveryId }, select: deliveryRefSelect });
}

/** A delivery known to exist (Prisma's not-found error otherwise). */
export async function readDelivery(db: DbOrTx, deliveryId: string): Promise<DeliveryRow> {
  return db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: deliverySelect });
}

/** Deliveries to endpoints of these workspaces, newest first, keyset-paginated by (createdAt, id). */
export async function listDeliveriesOfWorkspaces(db: DbOrTx, workspaceIds: string[], query: DeliveriesQuery) {
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpoint: { workspaceId: { in: workspaceIds } },
      endpointId: query.endpointId,
      eventId: query.eventId,
      eventType: query.eventType,
      status: query.status,
      // Failing: a failed attempt and no success yet, whether it still retries or gave up.
      ...(query.failing ? { OR: [{ status: 'exhausted' as const }, { status: 'pending' as const, attemptCount: { gt: 0 } }] } : {}),
      ...afterTimeIdCursor(query.cursor),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: deliverySelect,
  });
  return timeIdPage(rows, query.limit);
}

/** A new pending delivery of the original's event to its endpoint, linked to it. */
export async function insertReplay(db: DbOrTx, original: Pick<DeliveryRef, 'id' | 'endpointId' | 'eventId' | 'eventType'>, now: Date): Promise<DeliveryRow> {
  return db.webhookDelivery.create({
    data: {
      endpointId: original.endpointId,
      eventId: original.eventId,
      eventType: original.eventType,
      replayOfId: original.id,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
    select: deliverySelect,
  });
}

export type EndpointOnlyEvent = {
  id: string;
  type: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  subjectId: string;
  data: Prisma.InputJsonValue;
};

/**
 * An event for one endpoint only, and its delivery. Written already dispatched: the fan-out must
 * not send it to the environment's other endpoints.
 */
export async function insertEndpointOnlyEvent(db: DbOrTx, endpointId: string, event: EndpointOnlyEvent, now: Date): Promise<DeliveryRow> {
  await db.outboxEvent.create({ data: { ...event, createdAt: now, dispatchedAt: now }, select: { id: true } });
  return db.webhookDelivery.create({
    data: { endpointId, eventId: event.id, eventType: event.type, nextAttemptAt: now, createdAt: now, updatedAt: now },
    select: deliverySelect,
  });
}

// ---------------------------------------------------------------------------------------------
// Bulk replay

const WAITING_SQL = `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.created_at
  FROM webhook_deliveries d
  WHERE d.endpoint_id = $1::uuid AND d.status IN ('exhausted', 'canceled') AND d.created_at >= $2::timestamptz
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.replay_of_id = d.id AND r.status IN ('pending', 'succeeded'))`;

/** The endpoint's exhausted or canceled deliveries created since `since` with no replay pending or delivered. */
export async function countReplayable(db: DbOrTx, endpointId: string, since: string): Promise<number> {
  const [{ matched }] = await sqlRows<{ matched: number }>(db, `SELECT count(*)::int AS matched FROM (${WAITING_SQL}) w`, [endpointId, since]);
  return matched;
}

/** Replays the first `max` of those (oldest first) as insertReplay would; returns the replays' ids. */
export async function insertReplaysOfReplayable(db: DbOrTx, endpointId: string, since: string, now: Date, max: number): Promise<string[]> {
  const rows = await sqlRows<{ id: string }>(
    db,
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, replay_of_id, created_at, updated_at)
       SELECT gen_random_uuid(), w.endpoint_id, w.event_id, w.event_type, 'pending', 0, $3::timestamptz, w.id, $3::timestamptz, $3::timestamptz
         FROM (${WAITING_SQL} ORDER BY d.created_at, d.id LIMIT $4::int) w
       RETURNING id::text`,
    [endpointId, since, now, max],
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Cancelling the deliveries of disabled and deleted endpoints

/**
 * Cancels the pending deliveries among the rows `due` selects (a query returning ids):
 * `canceled` is terminal, and without a next attempt the row leaves the due queue's index
 * range. Rows are locked in id order, as recording attempts does, so the two never deadlock.
 */
const cancelSql = (due: string) => `WITH due AS (${due}), canceled AS (
    UPDATE webhook_deliveries d SET status = 'canceled', canceled_at = $1::timestamptz, next_attempt_at = NULL,
      leased_until = NULL, lease_token = NULL, updated_at = $1::timestamptz
    FROM due WHERE d.id = due.id
    RETURNING d.id
  ), lost AS (
    -- a crashed sender's attempts, never recorded: no later claim will say so
    ${markLostAttemptsSql('canceled')}
  )
  SELECT count(*)::int AS n FROM canceled`;

// A delivery a sender holds is left to it: it hands back (and so cancels) what it has not sent,
// and records what it has (a send already in flight may well succeed); a crashed sender's lease
// runs out and the minute job cancels the rest.
const PENDING_OF_INACTIVE = `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
  WHERE d.status = 'pending' AND (w.status = 'disabled' OR w.deleted_at IS NOT NULL)
    AND (d.leased_until IS NULL OR d.leased_until < $1::timestamptz)`;

const CANCEL_OF_ENDPOINT_SQL = cancelSql(`${PENDING_OF_INACTIVE} AND d.endpoint_id = $2::uuid ORDER BY d.id FOR UPDATE OF d`);
// The sweep skips rows someone holds (an attempt being recorded): the next sweep takes them.
const CANCEL_ALL_SQL = cancelSql(`${PENDING_OF_INACTIVE} ORDER BY d.id FOR UPDATE OF d SKIP LOCKED`);

/** Cancels the endpoint's pending deliveries no sender holds, if it is disabled or deleted; returns how many. */
export async function cancelPendingOfInactiveEndpoint(db: DbOrTx, endpointId: string, now: Date): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_OF_ENDPOINT_SQL, [now, endpointId]);
  return n;
}

/** The same for every disabled or deleted endpoint, skipping rows someone has locked. */
export async function cancelPendingOfInactiveEndpoints(db: DbOrTx, now: Date): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(db, CANCEL_ALL_SQL, [now]);
  return n;
}

// ---------------------------------------------------------------------------------------------
// The outbox dispatch (dispatch-outbox.ts)

/** The advisory lock key of the outbox dispatch (any constant of ours). */
export const DISPATCH_LOCK = 7_260_318_441;

// One dispatcher at a time (a transaction-level advisory lock, tried, not waited for): two
// scanning at once with SKIP LOCKED would split the events between them out of order, and the
// later-numbered half could be fanned out, committed and sent before the earlier one.
const DISPATCH_SQL = `WITH turn AS (
     SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}) AS ours
   ), due AS (
     SELECT id, type, environment_id FROM outbox_events
     WHERE dispatched_at IS NULL AND (SELECT ours FROM turn) ORDER BY seq LIMIT $2::int FOR UPDATE SKIP LOCKED
   ), fanned_out AS (
     ${fanOutSql('due', '$1::timestamptz')}
   ), marked AS (
     UPDATE outbox_events o SET dispatched_at = $1::timestamptz FROM due WHERE o.id = due.id RETURNING 1
   )
   SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM fanned_out)::int AS deliveries`;

/**
 * Fans out up to `limit` events not yet dispatched, in outbox order, and marks them, in one
 * statement; nothing when another dispatcher holds the lock.
 */
export async function fanOutUndispatchedEvents(db: DbOrTx, now: Date, limit: number): Promise<{ events: number; deliveries: number }> {
  const [counts] = await sqlRows<{ events: number; deliveries: number }>(db, DISPATCH_SQL, [now, limit]);
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Forwarding to Inngest (forward-deliveries.ts)

// Locks what it forwards (SKIP LOCKED: forwarders running at once take different rows) until
// Inngest has acknowledged it; a failed send rolls back and the rows wait for the next forward.
const DUE_FOR_FORWARDING_SQL = `SELECT d.id::text, d.endpoint_id::text, d.forward_count
  FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
  WHERE d.status = 'pending'
    AND (d.forwarded_at IS NULL
      OR (d.forwarded_at < $2::timestamptz AND d.next_attempt_at < $2::timestamptz
          AND (d.leased_until IS NULL OR d.leased_until < $1::timestamptz)))
  ORDER BY e.seq, d.created_at
  LIMIT $3::int
  FOR UPDATE OF d SKIP LOCKED`;

// Rows locked in id order, as every statement that locks several deliveries does.
const MARK_FORWARDED_SQL = `UPDATE webhook_deliveries SET forwarded_at = $2::timestamptz, forward_count = forward_count + 1
  WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE)`;

/**
 * Locks, in outbox order, up to `limit` pending deliveries never forwarded, or forwarded and
 * due before `overdueBefore` while no sender holds them; call it in a transaction.
 */
export async function lockDueForForwarding(
  db: DbOrTx,
  { now, overdueBefore, limit }: { now: Date; overdueBefore: Date; limit: number },
): Promise<{ id: string; endpoint_id: string; forward_count: number }[]> {
  return sqlRows(db, DUE_FOR_FORWARDING_SQL, [now.toISOString(), overdueBefore.toISOString(), limit]);
}

export async function markForwarded(db: DbOrTx, deliveryIds: string[], now: Date): Promise<void> {
  await sqlRows(db, MARK_FORWARDED_SQL, [deliveryIds, now.toISOString()]);
}

// ---------------------------------------------------------------------------------------------
// An endpoint's health (endpoint-stats.ts)

/** Attempts since `since`, the deliveries waiting, and the last failed attempt ever, read at once. */
export async function readEndpointFigures(db: DbOrTx, endpointId: string, since: Date) {
  const [[figures], [waiting], [failure]] = await Promise.all([
    sqlRows<{ attempts: number; succeeded: number; p50: number | null; p95: number | null }>(
      db,
      `SELECT count(*)::int AS attempts,
              count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299)::int AS succeeded,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY a.latency_ms) AS p50,
              percentile_disc(0.95) WITHIN GROUP (ORDER BY a.latency_ms) AS p95
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = $1::uuid AND a.started_at >= $2::timestamptz AND a.state <> 'sending'`,
      [endpointId, since],
    ),
    sqlRows<{ retrying: number; exhausted: number }>(
      db,
      `SELECT count(*) FILTER (WHERE status = 'pending' AND attempt_count > 0)::int AS retrying,
              count(*) FILTER (WHERE status = 'exhausted' AND updated_at >= $2::timestamptz)::int AS exhausted
         FROM webhook_deliveries WHERE endpoint_id = $1::uuid AND status IN ('pending', 'exhausted')`,
      [endpointId, since],
    ),
    sqlRows<{ at: Date; deliveryId: string; eventType: string; responseStatus: number | null; error: string | null }>(
      db,
      `SELECT a.started_at AS at, d.id::text AS "deliveryId", d.event_type AS "eventType", a.response_status AS "responseStatus", a.error
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = $1::uuid AND a.state <> 'sending' AND (a.response_status IS NULL OR a.response_status NOT BETWEEN 200 AND 299)
        ORDER BY a.started_at DESC LIMIT 1`,
      [endpointId],
    ),
  ]);
  return { figures, waiting, failure: failure as typeof failure | undefined };
}
