import type { Db } from '../db/client';
import { sweepIdempotentRequests } from '../idempotency/idempotent-requests';
import { sweepRotatedKeys } from '../keys/sweep-rotated-keys';
import { expireQuoteIntents } from '../quotes/expire-quote-intents';
import { forgetRequestLogBodies } from '../requestlog/forget-request-log-bodies';
import { cancelDeliveriesOfInactiveEndpoints } from '../webhooks/cancel-deliveries';
import { deliverDueWebhooks } from '../webhooks/deliver-due-webhooks';
import { dispatchOutboxEvents } from '../webhooks/dispatch-outbox';

/** The frequent job: fan new events out, then attempt every delivery that is due. */
export async function runWebhookJobs(db: Db, now: Date) {
  const dispatched = await dispatchOutboxEvents(db, now);
  const delivered = await deliverDueWebhooks(db, now);
  return { ...dispatched, attempted: delivered.attempted };
}

/**
 * The once-a-minute job: end rotation grace windows, expire intents that waited too long, cancel
 * deliveries left pending for a deleted endpoint, forget idempotent answers past their 24 hours
 * and request-log bodies past their 30 days.
 */
export async function runMinuteJobs(db: Db, now: Date) {
  return {
    keysRevoked: await sweepRotatedKeys(db, now),
    intentsExpired: await expireQuoteIntents(db, now),
    deliveriesCanceled: await cancelDeliveriesOfInactiveEndpoints(db, now),
    idempotentRequestsForgotten: await sweepIdempotentRequests(db, now),
    requestBodiesForgotten: await forgetRequestLogBodies(db, now),
  };
}
