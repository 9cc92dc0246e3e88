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

/**
 * Sends one endpoint's claimed deliveries in outbox order. `now` is the claim's clock reading;
 * each attempt is stamped (and signed) at the moment it is sent: `now` plus the time since.
 */
export async function deliverGroup(db: Db, group: ClaimedGroup, now: Date): Promise<void> {
  const started = performance.now();
  for (const deliveryId of group.deliveryIds) {
    const attemptAt = new Date(now.getTime() + Math.round(performance.now() - started));
    try {
      await attemptDelivery(db, deliveryId, attemptAt, group.leasedUntil);
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

async function attemptDelivery(db: Db, deliveryId: string, attemptAt: Date, leasedUntil: Date): Promise<void> {
  const delivery = await db.webhookDelivery.findUniqueOrThrow({
    where: { id: deliveryId },
    select: {
      id: true,
      attemptCount: true,
      endpoint: { select: { url: true, secretCiphertext: true, previousSecretCiphertext: true, previousSecretExpiresAt: true } },
      event: { select: { id: true, type: true, version: true, createdAt: true, businessId: true, data: true } },
    },
  });
  const { endpoint, event } = delivery;
  const body = deliveryBody(event);
  const secrets = [openSecret(endpoint.secretCiphertext)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > attemptAt) {
    secrets.push(openSecret(endpoint.previousSecretCiphertext));
  }
  const result = await sendWebhook(
    endpoint.url,
    body,
    {
      'content-type': 'application/json',
      'user-agent': 'QuotePricingService-Webhooks/1',
      'Service-Event-Id': event.id,
      'Service-Delivery-Id': delivery.id,
      'Service-Attempt': String(delivery.attemptCount + 1),
      [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(attemptAt.getTime() / 1000), body),
    },
    { allowPrivateTargets: privateTargetsAllowed() },
  );
  await recordAttempt(db, delivery.id, attemptAt, leasedUntil, result);
}

/**
 * Records an attempt under the delivery's row lock: the attempt number comes from the row, so
 * a worker whose lease ran out (and whose delivery another worker also sent) still records its
 * attempt, and a delivery that is already settled keeps its outcome.
 */
async function recordAttempt(db: Db, deliveryId: string, startedAt: Date, leasedUntil: Date, result: SendResult) {
  const acknowledged = result.status !== null && result.status >= 200 && result.status < 300;
  const outcome = await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ attempt_count: number; status: string; leased_until: Date | null }[]>`
      SELECT attempt_count, status::text, leased_until FROM webhook_deliveries WHERE id = ${deliveryId}::uuid FOR UPDATE`;
    const number = row.attempt_count + 1;
    const exhausted = !acknowledged && number >= MAX_ATTEMPTS;
    await tx.webhookAttempt.create({
      data: {
        deliveryId,
        number,
        startedAt,
        latencyMs: result.latencyMs,
        responseStatus: result.status,
        responseExcerpt: result.excerpt,
        error: result.error ?? (acknowledged ? null : `answered ${result.status}`),
      },
    });
    const stillOurs = row.status === 'pending' && row.leased_until?.getTime() === leasedUntil.getTime();
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: stillOurs
        ? {
            attemptCount: number,
            status: acknowledged ? 'succeeded' : exhausted ? 'exhausted' : 'pending',
            nextAttemptAt: acknowledged || exhausted ? null : new Date(startedAt.getTime() + RETRY_DELAYS_MS[number - 1]),
            leasedUntil: null,
            updatedAt: startedAt,
          }
        : { attemptCount: number },
    });
    return { number, exhausted };
  });
  if (!acknowledged) logger.info({ deliveryId, attempt: outcome.number, status: result.status, exhausted: outcome.exhausted }, 'webhook attempt failed');
}
