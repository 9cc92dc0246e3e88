import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { deliveryBody } from './envelope';
import { openSecret } from './secret-box';
import { ATTEMPT_TIMEOUT_MS, sendWebhook, type SendResult } from './send-webhook';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { privateTargetsAllowed } from './target-policy';

/** The fixed schedule: after the 1st..4th failure, wait this long; the 5th failure exhausts. */
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** One claim takes at most this many deliveries of one endpoint, sent one after another. */
const PER_ENDPOINT = 10;
/** Long enough for a whole claim of one endpoint to time out; a crashed worker's claim runs out. */
const LEASE_MS = PER_ENDPOINT * ATTEMPT_TIMEOUT_MS + 60_000;

/** Deliveries of one endpoint claimed together, in outbox order, under one lease. */
export type ClaimedGroup = { endpointId: string; deliveryIds: string[]; leasedUntil: Date };

/**
 * Claims due deliveries: oldest events first, at most PER_ENDPOINT per endpoint (so one slow
 * endpoint cannot take every slot), skipping endpoints the caller is still sending to. The
 * UPDATE re-checks the lease, so two workers never claim the same delivery.
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  options: { limit?: number; busyEndpoints?: Iterable<string> } = {},
): Promise<ClaimedGroup[]> {
  const leasedUntil = new Date(now.getTime() + LEASE_MS);
  const busy = [...(options.busyEndpoints ?? [])];
  const claimed = await db.$queryRaw<{ id: string; endpoint_id: string; seq: bigint }[]>`
    UPDATE webhook_deliveries d SET leased_until = ${leasedUntil}::timestamptz
    WHERE d.id IN (
      SELECT id FROM (
        SELECT d2.id, e.seq,
          ROW_NUMBER() OVER (PARTITION BY d2.endpoint_id ORDER BY e.seq, d2.created_at) AS rank
        FROM webhook_deliveries d2
        JOIN outbox_events e ON e.id = d2.event_id
        JOIN webhook_endpoints w ON w.id = d2.endpoint_id
        WHERE d2.status = 'pending' AND d2.next_attempt_at <= ${now}::timestamptz
          AND (d2.leased_until IS NULL OR d2.leased_until < ${now}::timestamptz)
          AND w.status = 'enabled' AND w.deleted_at IS NULL
          AND NOT (d2.endpoint_id = ANY(${busy}::uuid[]))
      ) ranked
      WHERE rank <= ${PER_ENDPOINT}
      ORDER BY seq
      LIMIT ${options.limit ?? 100}
    )
    AND d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until < ${now}::timestamptz)
    RETURNING d.id::text, d.endpoint_id::text, (SELECT seq FROM outbox_events WHERE id = d.event_id) AS seq`;
  const groups = new Map<string, { seq: bigint; id: string }[]>();
  for (const c of claimed) groups.set(c.endpoint_id, [...(groups.get(c.endpoint_id) ?? []), { seq: c.seq, id: c.id }]);
  return [...groups].map(([endpointId, rows]) => ({
    endpointId,
    deliveryIds: rows.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0)).map((r) => r.id),
    leasedUntil,
  }));
}

type DeliveryRow = {
  id: string;
  attempt_count: number;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  type: string;
  version: number;
  created_at: Date;
  business_id: string | null;
  data: unknown;
};

/**
 * Sends one endpoint's claimed deliveries in outbox order. `now` is the claim's clock reading;
 * each attempt is stamped (and signed) at the moment it is sent: `now` plus the time since.
 */
export async function deliverGroup(db: Db, group: ClaimedGroup, now: Date): Promise<void> {
  // One read for the whole group: deliveries with their endpoint and event.
  const rows = await db.$queryRaw<DeliveryRow[]>`
    SELECT d.id::text, d.attempt_count, w.url, w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at,
      e.id::text AS event_id, e.type, e.version, e.created_at, e.business_id::text AS business_id, e.data
    FROM webhook_deliveries d
    JOIN webhook_endpoints w ON w.id = d.endpoint_id
    JOIN outbox_events e ON e.id = d.event_id
    WHERE d.id = ANY(${group.deliveryIds}::uuid[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const started = performance.now();
  const secrets = new Map<string, string>(); // sealed -> opened, once per group
  const open = (sealed: string) => secrets.get(sealed) ?? secrets.set(sealed, openSecret(sealed)).get(sealed)!;
  for (const deliveryId of group.deliveryIds) {
    const row = byId.get(deliveryId);
    if (!row) continue;
    const attemptAt = new Date(now.getTime() + Math.round(performance.now() - started));
    try {
      const signingSecrets = [open(row.secret_ciphertext)];
      if (row.previous_secret_ciphertext && row.previous_secret_expires_at && row.previous_secret_expires_at > attemptAt) {
        signingSecrets.push(open(row.previous_secret_ciphertext));
      }
      const body = deliveryBody({ id: row.event_id, type: row.type, version: row.version, createdAt: row.created_at, businessId: row.business_id, data: row.data });
      const result = await sendWebhook(
        row.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'QuotePricingService-Webhooks/1',
          'Service-Event-Id': row.event_id,
          'Service-Delivery-Id': row.id,
          'Service-Attempt': String(row.attempt_count + 1),
          [SIGNATURE_HEADER]: signatureHeader(signingSecrets, Math.floor(attemptAt.getTime() / 1000), body),
        },
        { allowPrivateTargets: privateTargetsAllowed() },
      );
      await recordAttempt(db, row.id, attemptAt, group.leasedUntil, result);
    } catch (error) {
      // The lease runs out and another pass retries; one bad row must not stop the others.
      logger.error({ err: error, deliveryId }, 'webhook attempt could not be made');
    }
  }
}

/** One pass for Inngest and tests: claim, then send every group (endpoints in parallel). */
export async function deliverDueWebhooks(db: Db, now: Date, limit = 100): Promise<{ attempted: number }> {
  const groups = await claimDueDeliveries(db, now, { limit });
  await Promise.all(groups.map((group) => deliverGroup(db, group, now)));
  return { attempted: groups.reduce((n, g) => n + g.deliveryIds.length, 0) };
}

/**
 * Records an attempt under the delivery's row lock: the attempt number comes from the row, so
 * a worker whose lease ran out (and whose delivery another worker also sent) still records its
 * attempt, and a delivery that is already settled keeps its outcome.
 */
async function recordAttempt(db: Db, deliveryId: string, startedAt: Date, leasedUntil: Date, result: SendResult) {
  const acknowledged = result.status !== null && result.status >= 200 && result.status < 300;
  const error = result.error ?? (acknowledged ? null : `answered ${result.status}`);
  // One statement: lock the delivery, number the attempt from the row, settle the delivery if
  // this worker still holds its lease (otherwise only count the attempt).
  const [row] = await db.$queryRaw<{ number: number; status: string }[]>`
    WITH locked AS (
      SELECT id, attempt_count + 1 AS number, status = 'pending' AND leased_until = ${leasedUntil}::timestamptz AS ours
      FROM webhook_deliveries WHERE id = ${deliveryId}::uuid FOR UPDATE
    ), attempt AS (
      INSERT INTO webhook_attempts (id, delivery_id, number, started_at, latency_ms, response_status, response_excerpt, error)
      SELECT gen_random_uuid(), id, number, ${startedAt}::timestamptz, ${result.latencyMs}::int, ${result.status}::int,
        ${result.excerpt}, ${error}
      FROM locked
    )
    UPDATE webhook_deliveries d SET
      attempt_count = l.number,
      status = CASE WHEN NOT l.ours THEN d.status
                    WHEN ${acknowledged} THEN 'succeeded'::"WebhookDeliveryStatus"
                    WHEN l.number >= ${MAX_ATTEMPTS} THEN 'exhausted'::"WebhookDeliveryStatus"
                    ELSE 'pending'::"WebhookDeliveryStatus" END,
      next_attempt_at = CASE WHEN NOT l.ours THEN d.next_attempt_at
                             WHEN ${acknowledged} OR l.number >= ${MAX_ATTEMPTS} THEN NULL
                             ELSE ${startedAt}::timestamptz + (${[...RETRY_DELAYS_MS]}::int[])[l.number] * interval '1 millisecond' END,
      leased_until = CASE WHEN l.ours THEN NULL ELSE d.leased_until END,
      updated_at = CASE WHEN l.ours THEN ${startedAt}::timestamptz ELSE d.updated_at END
    FROM locked l WHERE d.id = l.id
    RETURNING l.number, d.status::text`;
  if (!acknowledged) logger.info({ deliveryId, attempt: row?.number, status: result.status, exhausted: row?.status === 'exhausted' }, 'webhook attempt failed');
}
