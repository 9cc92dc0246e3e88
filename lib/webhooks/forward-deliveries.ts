import { withTransaction, type VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';

/** The Inngest event that starts a delivery's run (inngest/functions/deliver-webhook.ts). */
export const DELIVERY_QUEUED_EVENT = 'webhooks/delivery.queued';

export type DeliveryQueuedEvent = {
  /** Inngest drops an event whose id it has seen in the last 24 hours: a re-sent batch runs nothing twice. */
  id: string;
  name: typeof DELIVERY_QUEUED_EVENT;
  data: { deliveryId: string; endpointId: string };
};

/** Sends events to Inngest and resolves once Inngest has acknowledged them (inngest.send). */
export type SendToInngest = (events: DeliveryQueuedEvent[]) => Promise<unknown>;

/** Events per request to Inngest (its event API takes batches). */
const BATCH = 500;
/**
 * A pending delivery this far behind its next attempt, and not held by a sender, has lost its
 * run (Inngest dropped it, or its steps failed for good): it is handed to Inngest again.
 */
export const OVERDUE_MS = 10 * 60_000;

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
 * Hands pending deliveries to Inngest, one `webhooks/delivery.queued` event each, in outbox
 * order: those never handed over, and those overdue by OVERDUE_MS. PostgreSQL stays the source
 * of truth: a delivery counts as forwarded only once Inngest has acknowledged its event, so
 * when Inngest is unreachable nothing is lost — the next forward (after the next write, or the
 * minute sweep) sends it again, under the same event id.
 */
export async function forwardDeliveries(ctx: VerbContext, { send }: { send: SendToInngest }): Promise<{ forwarded: number }> {
  const { now } = ctx;
  let forwarded = 0;
  for (;;) {
    const batch = await withTransaction(
      ctx,
      async ({ db: tx }) => {
        const rows = await sqlRows<{ id: string; endpoint_id: string; forward_count: number }>(tx, DUE_FOR_FORWARDING_SQL, [
          now.toISOString(),
          new Date(now.getTime() - OVERDUE_MS).toISOString(),
          BATCH,
        ]);
        if (rows.length === 0) return 0;
        await send(
          rows.map((row) => ({
            id: `delivery-${row.id}-${row.forward_count}`,
            name: DELIVERY_QUEUED_EVENT,
            data: { deliveryId: row.id, endpointId: row.endpoint_id },
          })),
        );
        await sqlRows(tx, MARK_FORWARDED_SQL, [rows.map((row) => row.id), now.toISOString()]);
        return rows.length;
      },
      { timeout: 30_000 },
    );
    forwarded += batch;
    if (batch < BATCH) return { forwarded };
  }
}
