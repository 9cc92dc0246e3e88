import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { deliveryBody } from './envelope';
import { openSecret } from './secret-box';
import { sendWebhook, type SendResult } from './send-webhook';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { privateTargetsAllowed } from './target-policy';

/** The fixed schedule: after the 1st..4th failure, wait this long; the 5th failure exhausts. */
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A claimed delivery is the worker's for this long; a crashed worker's claim runs out. */
const LEASE_MS = 2 * 60_000;

type Claimed = { id: string; endpoint_id: string; seq: bigint };

/**
 * One pass of the delivery worker: claim due deliveries (oldest events first, SKIP LOCKED so
 * workers on several instances never share one), send them — in outbox order per endpoint,
 * endpoints in parallel — and record every attempt. `now` is the worker's clock reading.
 */
export async function deliverDueWebhooks(db: Db, now: Date, limit = 100): Promise<{ attempted: number }> {
  const claimed = await db.$queryRaw<Claimed[]>`
    UPDATE webhook_deliveries d SET leased_until = ${new Date(now.getTime() + LEASE_MS)}::timestamptz
    FROM (
      SELECT d2.id, e.seq FROM webhook_deliveries d2
      JOIN outbox_events e ON e.id = d2.event_id
      JOIN webhook_endpoints w ON w.id = d2.endpoint_id
      WHERE d2.status = 'pending' AND d2.next_attempt_at <= ${now}::timestamptz
        AND (d2.leased_until IS NULL OR d2.leased_until < ${now}::timestamptz)
        AND w.status = 'enabled' AND w.deleted_at IS NULL
      ORDER BY e.seq, d2.created_at
      LIMIT ${limit}
      FOR UPDATE OF d2 SKIP LOCKED
    ) due
    WHERE d.id = due.id
    RETURNING d.id::text, d.endpoint_id::text, due.seq`;
  if (claimed.length === 0) return { attempted: 0 };

  const byEndpoint = new Map<string, Claimed[]>();
  for (const c of [...claimed].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))) {
    byEndpoint.set(c.endpoint_id, [...(byEndpoint.get(c.endpoint_id) ?? []), c]);
  }
  await Promise.all(
    [...byEndpoint.values()].map(async (group) => {
      for (const delivery of group) await attemptDelivery(db, delivery.id, now);
    }),
  );
  return { attempted: claimed.length };
}

async function attemptDelivery(db: Db, deliveryId: string, now: Date): Promise<void> {
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
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openSecret(endpoint.previousSecretCiphertext));
  }
  const number = delivery.attemptCount + 1;
  const result = await sendWebhook(
    endpoint.url,
    body,
    {
      'content-type': 'application/json',
      'user-agent': 'QuotePricingService-Webhooks/1',
      'Service-Event-Id': event.id,
      'Service-Delivery-Id': delivery.id,
      'Service-Attempt': String(number),
      [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(now.getTime() / 1000), body),
    },
    { guardTargets: !privateTargetsAllowed() },
  );
  await recordAttempt(db, delivery.id, number, now, result);
}

async function recordAttempt(db: Db, deliveryId: string, number: number, startedAt: Date, result: SendResult) {
  const acknowledged = result.status !== null && result.status >= 200 && result.status < 300;
  const exhausted = !acknowledged && number >= MAX_ATTEMPTS;
  const nextAttemptAt = acknowledged || exhausted ? null : new Date(startedAt.getTime() + RETRY_DELAYS_MS[number - 1]);
  await db.$transaction([
    db.webhookAttempt.create({
      data: {
        deliveryId,
        number,
        startedAt,
        latencyMs: result.latencyMs,
        responseStatus: result.status,
        responseExcerpt: result.excerpt,
        error: result.error ?? (acknowledged ? null : `answered ${result.status}`),
      },
    }),
    db.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        attemptCount: number,
        status: acknowledged ? 'succeeded' : exhausted ? 'exhausted' : 'pending',
        nextAttemptAt,
        leasedUntil: null,
        updatedAt: startedAt,
      },
    }),
  ]);
  if (!acknowledged) logger.info({ deliveryId, attempt: number, status: result.status, exhausted }, 'webhook attempt failed');
}
