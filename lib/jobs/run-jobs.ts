import type { VerbContext } from '../context/verb-context';
import { pauseLosingArms } from '../experiments/pause-arms';
import { sweepIdempotentRequests } from '../idempotency/idempotent-requests';
import { sweepRotatedKeys } from '../keys/sweep-rotated-keys';
import { forgetSpentCounters } from '../ratelimit/counters';
import { expireQuoteIntents } from '../quotes/expire-quote-intents';
import { rollUpQuotes } from '../quotes/quote-rollup';
import { sendOwnerNotifications } from '../notifications/send-owner-notifications';
import { maintainRequestLogPartitions } from '../requestlog/partitions';
import { cancelDeliveriesOfInactiveEndpoints } from '../webhooks/cancel-deliveries';
import { deliverDueWebhooks } from '../webhooks/deliver-due-webhooks';
import { dispatchOutboxEvents } from '../webhooks/dispatch-outbox';

/** One pass of the frequent job, for tests and tools: fan new events out, then attempt every delivery that is due. */
export async function runWebhookJobs(ctx: VerbContext) {
  const dispatched = await dispatchOutboxEvents(ctx);
  const delivered = await deliverDueWebhooks(ctx);
  return { ...dispatched, attempted: delivered.attempted };
}

/**
 * The once-a-minute jobs, each named by what it counts and by its Inngest function's id: end
 * rotation grace windows (spec 3.2), expire intents that waited too long, cancel deliveries
 * left pending for a disabled or deleted endpoint, forget idempotent answers past their 24
 * hours, make the request log's day partitions ahead and drop those past their retention
 * (bodies after 30 days, rows after REQUEST_LOG_RETENTION_DAYS), count the recent hours of quotes
 * into the Overview's rollup, pause experiment variants their acceptance guardrail fires for
 * (docs/experiments.md, "Guardrails"), email owners of new leads, held quotes and paused
 * variants (with SMTP_URL only), forget rate-limit counters an hour past their window. The
 * in-process runner runs them all in turn; with Inngest each is a cron function of its own (inngest/functions/minute-jobs.ts).
 */
export const MINUTE_JOBS = {
  keysRevoked: { id: 'sweep-rotated-keys', run: sweepRotatedKeys },
  intentsExpired: { id: 'expire-quote-intents', run: expireQuoteIntents },
  deliveriesCanceled: { id: 'cancel-undeliverable-deliveries', run: cancelDeliveriesOfInactiveEndpoints },
  idempotentRequestsForgotten: { id: 'forget-idempotent-requests', run: sweepIdempotentRequests },
  requestLogPartitionsChanged: { id: 'request-log-partitions', run: (ctx) => maintainRequestLogPartitions(ctx) },
  quoteHoursCounted: { id: 'roll-up-quotes', run: rollUpQuotes },
  experimentArmsPaused: { id: 'pause-losing-arms', run: pauseLosingArms },
  ownerEmailsSent: { id: 'send-owner-notifications', run: sendOwnerNotifications },
  rateLimitCountersForgotten: { id: 'forget-spent-rate-limits', run: (ctx) => forgetSpentCounters(ctx.db, ctx.now) },
} satisfies Record<string, { id: string; run: (ctx: VerbContext) => Promise<number> }>;

export async function runMinuteJobs(ctx: VerbContext): Promise<Record<keyof typeof MINUTE_JOBS, number>> {
  const counts = {} as Record<keyof typeof MINUTE_JOBS, number>;
  for (const [name, job] of Object.entries(MINUTE_JOBS)) counts[name as keyof typeof MINUTE_JOBS] = await job.run(ctx);
  return counts;
}
