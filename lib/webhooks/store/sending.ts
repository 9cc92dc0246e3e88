import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { RECEIPT_PARTS_SQL, withCompletePayload, type ReceiptParts } from '../../events/store';

/**
 * The sending engine's SQL (deliver-due-webhooks.ts says how it runs): claims of due deliveries
 * under an endpoint's send lease, the marks of attempts started, lease renewals and releases,
 * and the recording of attempts. Per-endpoint order rests on these statements: an endpoint is
 * claimed FOR NO KEY UPDATE SKIP LOCKED with its send lease, every statement that locks several
 * deliveries locks them in id order, and a claim's lease token settles its deliveries only
 * while it still holds them.
 */

/** Attempts marked started ahead of their send, in one statement (what a crash may count unsent). */
export const MARK_AHEAD = 8;

/**
 * What an attempt says when the process that made it stopped before recording its outcome
 * (state `lost`): its request may or may not have reached the receiver.
 */
export const LOST_ATTEMPT_ERROR = 'no answer recorded: the process stopped';

/**
 * Marks the attempts still `sending` of the deliveries `cte` names (a CTE with an `id` column)
 * as lost: the claim that made them no longer holds them, so no outcome will be recorded under
 * it (a worker that is still alive and records one after all overwrites this).
 */
export const markLostAttemptsSql = (cte: string) => `UPDATE webhook_attempts a SET state = 'lost', error = '${LOST_ATTEMPT_ERROR}'
      FROM ${cte} WHERE a.delivery_id = ${cte}.id AND a.state = 'sending'`;

/** What a send needs of its endpoint. */
export type EndpointTarget = {
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  /** A Test endpoint set to fail (test-failures.ts): the send takes a failure first. */
  test_failure_mode: string | null;
};

/** One claimed delivery with what its attempt needs of its event (its endpoint is the group's). */
export type ClaimedDelivery = {
  id: string;
  endpoint_id: string;
  /** Its attempt's number, when the claim marked it started (the first MARK_AHEAD of its endpoint). */
  started_number: number | null;
  /** When it fell due (its next attempt's time): how far behind the endpoint's sends are. */
  due_at: Date;
  event_id: string;
  type: string;
  version: number;
  created_at: Date;
  business_id: string | null;
  /** The payload as every delivery sends it (completePayload). */
  data: unknown;
};

const ENDPOINT_TARGET_SQL = `SELECT url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at,
    test_failure_mode::text
  FROM webhook_endpoints WHERE id = $1::uuid AND status = 'enabled' AND deleted_at IS NULL`;

/** The endpoint as it is now, or null once it is disabled or deleted. */
export async function readEndpointTarget(db: DbOrTx, endpointId: string): Promise<EndpointTarget | null> {
  const [row] = await sqlRows<EndpointTarget>(db, ENDPOINT_TARGET_SQL, [endpointId]);
  return row ?? null;
}

/**
 * The claiming statement. `through` scopes it to one delivery's endpoint and to the deliveries
 * up to and including that one in outbox order (an Inngest run for that delivery); otherwise
 * every endpoint with due deliveries is a candidate (the in-process runner).
 */
function claimSql(through: boolean): string {
  const target = through
    ? `target AS (
      SELECT x.endpoint_id, e.seq FROM webhook_deliveries x JOIN outbox_events e ON e.id = x.event_id WHERE x.id = $9::uuid
    ), `
    : '';
  const dueScope = through ? 'AND d.endpoint_id = (SELECT endpoint_id FROM target) AND e.seq <= (SELECT seq FROM target)' : '';
  const claimScope = through ? 'AND e.seq <= (SELECT seq FROM target)' : '';
  return `WITH ${target}due AS (
      SELECT d.endpoint_id, MIN(e.seq) AS first_seq
      FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= $2::timestamptz
        AND (d.leased_until IS NULL OR d.leased_until < $2::timestamptz)
        AND NOT (d.endpoint_id = ANY($3::uuid[])) ${dueScope}
      GROUP BY d.endpoint_id
    ), ready AS (
      -- endpoints in the order of their oldest due event, free or already this owner's
      SELECT w.id FROM webhook_endpoints w JOIN due ON due.endpoint_id = w.id
      WHERE w.status = 'enabled' AND w.deleted_at IS NULL
        AND (w.send_lease_until IS NULL OR w.send_lease_until < $2::timestamptz OR w.send_lease_owner = $7::uuid)
      ORDER BY due.first_seq, w.id
      LIMIT $6::int
      -- NO KEY UPDATE: a quote inserting this endpoint's deliveries (KEY SHARE) is not kept waiting
      FOR NO KEY UPDATE OF w SKIP LOCKED
    ), leased AS (
      UPDATE webhook_endpoints w SET send_lease_until = $1::timestamptz, send_lease_owner = $7::uuid
      FROM ready WHERE w.id = ready.id
      RETURNING w.id
    ), locked AS (
      -- every statement that locks several deliveries locks them in id order: none waits in a cycle
      SELECT d.id, picked.rank FROM webhook_deliveries d
      JOIN (
        SELECT id, rank FROM (
          SELECT d2.id, e.seq, ROW_NUMBER() OVER (PARTITION BY d2.endpoint_id ORDER BY e.seq, d2.created_at) AS rank
          FROM webhook_deliveries d2 JOIN outbox_events e ON e.id = d2.event_id
          WHERE d2.endpoint_id IN (SELECT id FROM leased) AND d2.status = 'pending' AND d2.next_attempt_at <= $2::timestamptz
            AND (d2.leased_until IS NULL OR d2.leased_until < $2::timestamptz) ${claimScope}
        ) ranked
        WHERE rank <= $4::int
        ORDER BY seq
        LIMIT $5::int
      ) picked ON picked.id = d.id
      WHERE d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until < $2::timestamptz)
      ORDER BY d.id
      FOR UPDATE OF d
    ), lost AS (
      -- attempts a claim before this one made and never recorded (its process stopped)
      ${markLostAttemptsSql('locked')}
    ), claimed AS (
      -- the first few of each endpoint are marked started here (StartMarks marks the others)
      UPDATE webhook_deliveries d SET leased_until = $1::timestamptz, lease_token = $8::uuid,
        attempts_started = d.attempts_started + CASE WHEN locked.rank <= ${MARK_AHEAD} THEN 1 ELSE 0 END
      FROM locked WHERE d.id = locked.id
      RETURNING d.id, d.endpoint_id, d.event_id, d.created_at, d.next_attempt_at AS due_at,
        CASE WHEN locked.rank <= ${MARK_AHEAD} THEN d.attempts_started END AS started_number
    ), started AS (
      -- each attempt is recorded before its request is sent
      INSERT INTO webhook_attempts (id, delivery_id, number, started_at, state)
      SELECT gen_random_uuid(), c.id, c.started_number, $2::timestamptz, 'sending' FROM claimed c WHERE c.started_number IS NOT NULL
    )
    SELECT c.id::text, c.endpoint_id::text, c.started_number, c.due_at, w.url, w.secret_ciphertext, w.previous_secret_ciphertext,
      w.previous_secret_expires_at, w.test_failure_mode::text, e.id::text AS event_id, e.type, e.version, e.created_at, e.business_id::text AS business_id, e.data,
      ${RECEIPT_PARTS_SQL}
    FROM claimed c
    JOIN webhook_endpoints w ON w.id = c.endpoint_id
    JOIN outbox_events e ON e.id = c.event_id
    LEFT JOIN quote_receipts r ON r.id = e.receipt_id
    ORDER BY e.seq, c.created_at`;
}
const CLAIM_ANY_SQL = claimSql(false);
const CLAIM_THROUGH_SQL = claimSql(true);

export type ClaimRequest = {
  now: Date;
  leasedUntil: Date;
  /** This claim's token, written on each delivery it takes. */
  leaseToken: string;
  /** Whose the endpoints' send leases become: endpoints it already holds may be claimed again. */
  owner: string;
  /** Endpoints the caller is still sending to: not claimed. */
  busy: string[];
  perEndpoint: number;
  limit: number;
  maxEndpoints: number;
  /** Only this delivery's endpoint, and its deliveries up to this one in outbox order. */
  through?: string;
};

/**
 * Leases up to `maxEndpoints` free endpoints (those with the oldest due events) and up to
 * `perEndpoint` of each one's due deliveries, `limit` in all, oldest events first, marks the
 * first MARK_AHEAD of each endpoint started, and reads what their attempts need: one row per
 * delivery in outbox order.
 */
export async function claimDeliveries(db: DbOrTx, claim: ClaimRequest): Promise<(ClaimedDelivery & EndpointTarget)[]> {
  const parameters: unknown[] = [
    claim.leasedUntil.toISOString(),
    claim.now.toISOString(),
    claim.busy,
    claim.perEndpoint,
    claim.limit,
    claim.maxEndpoints,
    claim.owner,
    claim.leaseToken,
  ];
  const rows = await sqlRows<ClaimedDelivery & EndpointTarget & ReceiptParts>(
    db,
    claim.through === undefined ? CLAIM_ANY_SQL : CLAIM_THROUGH_SQL,
    claim.through === undefined ? parameters : [...parameters, claim.through],
  );
  return rows.map(withCompletePayload);
}

/**
 * Marks these deliveries' next attempt started, if the claim `leaseToken` still holds them, and
 * records each attempt (`sending`, dated `at`) before its request is sent: their attempt numbers
 * (a delivery missing from the map is no longer the claim's).
 */
export async function markAttemptsStarted(db: DbOrTx, deliveryIds: string[], leaseToken: string, at: Date): Promise<Map<string, number>> {
  const rows = await sqlRows<{ id: string; attempts_started: number }>(
    db,
    `WITH marked AS (
       UPDATE webhook_deliveries SET attempts_started = attempts_started + 1
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND lease_token = $2::uuid AND status = 'pending' ORDER BY id FOR UPDATE)
       RETURNING id, attempts_started
     ), started AS (
       INSERT INTO webhook_attempts (id, delivery_id, number, started_at, state)
       SELECT gen_random_uuid(), id, attempts_started, $3::timestamptz, 'sending' FROM marked
     )
     SELECT id::text, attempts_started FROM marked`,
    [deliveryIds, leaseToken, at.toISOString()],
  );
  return new Map(rows.map((r) => [r.id, r.attempts_started]));
}

/** A claim's hold: the endpoint's send lease (`owner`) and its deliveries' (`leaseToken`). */
export type ClaimHold = { endpointId: string; owner: string; deliveryIds: string[]; leaseToken: string };

/**
 * Moves a claim's leases on to `until` (never back, for the endpoint's: a later claim may have
 * taken it further), the endpoint's then its deliveries', in two statements so that neither
 * holds one lock while waiting for another.
 */
export async function extendLeases(db: DbOrTx, hold: ClaimHold, until: Date): Promise<void> {
  await sqlRows(
    db,
    `UPDATE webhook_endpoints SET send_lease_until = GREATEST(send_lease_until, $1::timestamptz) WHERE id = $2::uuid AND send_lease_owner = $3::uuid`,
    [until.toISOString(), hold.endpointId, hold.owner],
  );
  await sqlRows(
    db,
    `UPDATE webhook_deliveries SET leased_until = $2::timestamptz
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND lease_token = $3::uuid AND status = 'pending' ORDER BY id FOR UPDATE)`,
    [hold.deliveryIds, until.toISOString(), hold.leaseToken],
  );
}

/**
 * Gives the endpoint's send lease back if `owner` holds it and (with `lastLease`) no claim has
 * extended it past that since.
 */
export async function releaseEndpointLease(db: DbOrTx, endpointId: string, owner: string, lastLease: Date | undefined): Promise<void> {
  await sqlRows(
    db,
    `UPDATE webhook_endpoints SET send_lease_until = NULL, send_lease_owner = NULL
      WHERE id = $1::uuid AND send_lease_owner = $2::uuid AND ($3::timestamptz IS NULL OR send_lease_until <= $3::timestamptz)`,
    [endpointId, owner, lastLease?.toISOString() ?? null],
  );
}

/**
 * Gives back the deliveries the claim `leaseToken` still holds; those in `markedUnsent` were
 * marked started but not sent: they are unmarked, and their attempt records removed.
 */
export async function releaseDeliveryLeases(db: DbOrTx, deliveryIds: string[], leaseToken: string, markedUnsent: string[]): Promise<void> {
  await sqlRows(
    db,
    `WITH released AS (
       UPDATE webhook_deliveries d SET leased_until = NULL, lease_token = NULL,
         attempts_started = d.attempts_started - CASE WHEN d.id = ANY($3::uuid[]) THEN 1 ELSE 0 END
       WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND status = 'pending' AND lease_token = $2::uuid ORDER BY id FOR UPDATE)
       RETURNING d.id, d.attempts_started
     )
     DELETE FROM webhook_attempts a USING released r
     WHERE a.delivery_id = r.id AND r.id = ANY($3::uuid[]) AND a.number = r.attempts_started + 1 AND a.state = 'sending'`,
    [deliveryIds, leaseToken, markedUnsent],
  );
}

/** Where a delivery stands, and whether a worker other than `owner` holds its endpoint. */
export type DeliveryStanding = {
  status: 'pending' | 'succeeded' | 'exhausted' | 'canceled';
  next_attempt_at: Date | null;
  leased_until: Date | null;
  send_lease_until: Date | null;
  held_by_other: boolean;
};

export async function readDeliveryStanding(db: DbOrTx, deliveryId: string, owner: string): Promise<DeliveryStanding | undefined> {
  const [row] = await sqlRows<DeliveryStanding>(
    db,
    `SELECT d.status::text, d.next_attempt_at, d.leased_until, w.send_lease_until, w.send_lease_owner IS DISTINCT FROM $2::uuid AS held_by_other
     FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = $1::uuid`,
    [deliveryId, owner],
  );
  return row;
}

/** An attempt as recorded: what was sent and answered, and the number it was marked with when it started. */
export type AttemptRecord = {
  deliveryId: string;
  /** The claim the attempt was made under: it settles the delivery only if that claim still holds it. */
  leaseToken: string;
  number: number;
  startedAt: Date;
  latencyMs: number;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  acknowledged: boolean;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
};

/**
 * The retry schedule: after the `number`-th failed attempt ends (its start plus its latency), the
 * next waits `retryDelaysMs[number - 1]` (`compressedDelaysMs` for an endpoint with
 * `compressed_retries`, read as the attempt is written); attempt `maxAttempts` is the last.
 */
export type RetrySchedule = { maxAttempts: number; retryDelaysMs: readonly number[]; compressedDelaysMs: readonly number[] };

/**
 * Writes attempts' outcomes in one statement, each under its delivery's row lock (taken in id
 * order): the attempt row always (recorded `sending` before the send, now `ended`; even when a
 * later claim has marked it lost meanwhile, the outcome is better), and the delivery's outcome
 * (succeeded, exhausted, or its next attempt) only while the attempt's claim still holds it, so a
 * settled delivery keeps its outcome.
 */
export async function writeAttempts(
  db: DbOrTx,
  attempts: AttemptRecord[],
  schedule: RetrySchedule,
): Promise<{ id: string; number: number; status: string }[]> {
  return sqlRows<{ id: string; number: number; status: string }>(
    db,
    `WITH input AS (
      SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::boolean[],
          $11::text[], $12::text[], $13::int[])
        AS t(id, lease_token, started_at, latency_ms, response_status, response_excerpt, error, acknowledged, request_headers, response_headers, number)
    ), locked AS (
      SELECT d.id, i.number, d.status = 'pending' AND d.lease_token IS NOT DISTINCT FROM i.lease_token AS ours,
        i.started_at, i.latency_ms, i.response_status, i.response_excerpt, i.error, i.acknowledged, i.request_headers, i.response_headers,
        CASE WHEN w.compressed_retries THEN $14::int[] ELSE $10::int[] END AS delays, w.environment_id
      FROM webhook_deliveries d JOIN input i ON i.id = d.id JOIN webhook_endpoints w ON w.id = d.endpoint_id
      ORDER BY d.id
      FOR UPDATE OF d
    ), attempt AS (
      INSERT INTO webhook_attempts (id, delivery_id, number, started_at, latency_ms, response_status, response_excerpt, error, request_headers, response_headers, state)
      SELECT gen_random_uuid(), id, number, started_at, latency_ms, response_status, response_excerpt, error, request_headers::json, response_headers::json, 'ended' FROM locked
      ON CONFLICT (delivery_id, number) DO UPDATE SET started_at = EXCLUDED.started_at, latency_ms = EXCLUDED.latency_ms,
        response_status = EXCLUDED.response_status, response_excerpt = EXCLUDED.response_excerpt, error = EXCLUDED.error,
        request_headers = EXCLUDED.request_headers, response_headers = EXCLUDED.response_headers, state = 'ended'
    ), counted AS (
      -- The Overview's hourly figure, counted with the attempts (rows in key order: no lock cycles).
      INSERT INTO webhook_attempts_hourly (environment_id, hour, succeeded, attempts)
      SELECT environment_id, date_trunc('hour', started_at, 'UTC'), COALESCE(response_status BETWEEN 200 AND 299, false), count(*)
      FROM locked GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (environment_id, hour, succeeded) DO UPDATE SET attempts = webhook_attempts_hourly.attempts + EXCLUDED.attempts
    )
    UPDATE webhook_deliveries d SET
      attempt_count = GREATEST(d.attempt_count, l.number),
      status = CASE WHEN NOT l.ours THEN d.status
                    WHEN l.acknowledged THEN 'succeeded'::"WebhookDeliveryStatus"
                    WHEN l.number >= $9::int THEN 'exhausted'::"WebhookDeliveryStatus"
                    ELSE 'pending'::"WebhookDeliveryStatus" END,
      next_attempt_at = CASE WHEN NOT l.ours THEN d.next_attempt_at
                             WHEN l.acknowledged OR l.number >= $9::int THEN NULL
                             -- the delay counts from the attempt's end: a timed-out one ended 10 s after it started
                             ELSE l.started_at + (l.latency_ms + l.delays[LEAST(l.number, $9::int - 1)]) * interval '1 millisecond' END,
      leased_until = CASE WHEN l.ours THEN NULL ELSE d.leased_until END,
      lease_token = CASE WHEN l.ours THEN NULL ELSE d.lease_token END,
      updated_at = CASE WHEN l.ours THEN l.started_at ELSE d.updated_at END
    FROM locked l WHERE d.id = l.id
    RETURNING d.id::text, l.number, d.status::text`,
    [
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.leaseToken),
      attempts.map((a) => a.startedAt.toISOString()),
      attempts.map((a) => a.latencyMs),
      attempts.map((a) => a.responseStatus),
      attempts.map((a) => a.responseExcerpt),
      attempts.map((a) => a.error),
      attempts.map((a) => a.acknowledged),
      schedule.maxAttempts,
      [...schedule.retryDelaysMs],
      attempts.map((a) => JSON.stringify(a.requestHeaders)),
      attempts.map((a) => (a.responseHeaders ? JSON.stringify(a.responseHeaders) : null)),
      attempts.map((a) => a.number),
      [...schedule.compressedDelaysMs],
    ],
  );
}
