import { z } from 'zod';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { lockDueForForwarding, markForwarded } from './store';

/** The Inngest event that starts a delivery's run (inngest/functions/deliver-webhook.ts). */
export const DELIVERY_QUEUED_EVENT = 'webhooks/delivery.queued';

/**
 * Its data: the delivery, and its endpoint (the function's concurrency key). The function's
 * trigger carries this schema, so Inngest validates every event before the run starts (a
 * malformed one fails without retries, touching nothing).
 */
export const deliveryQueuedDataSchema = z.strictObject({ deliveryId: z.uuid(), endpointId: z.uuid() });

export type DeliveryQueuedEvent = {
  /** Inngest drops an event whose id it has seen in the last 24 hours: a re-sent batch runs nothing twice. */
  id: string;
  name: typeof DELIVERY_QUEUED_EVENT;
  data: z.infer<typeof deliveryQueuedDataSchema>;
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
        // Locked until Inngest has acknowledged them: a failed send rolls back, and they wait for the next forward.
        const rows = await lockDueForForwarding(tx, { now, overdueBefore: new Date(now.getTime() - OVERDUE_MS), limit: BATCH });
        if (rows.length === 0) return 0;
        await send(
          rows.map((row) => ({
            id: `delivery-${row.id}-${row.forward_count}`,
            name: DELIVERY_QUEUED_EVENT,
            data: { deliveryId: row.id, endpointId: row.endpoint_id },
          })),
        );
        await markForwarded(tx, rows.map((row) => row.id), now);
        return rows.length;
      },
      { timeout: 30_000 },
    );
    forwarded += batch;
    if (batch < BATCH) return { forwarded };
  }
}
