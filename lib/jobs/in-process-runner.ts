import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { claimDueDeliveries, deliverGroup } from '../webhooks/deliver-due-webhooks';
import { dispatchOutboxEvents } from '../webhooks/dispatch-outbox';
import { runMinuteJobs } from './run-jobs';

export type RunnerOptions = { db: Db; clock?: () => Date; tickMs?: number; minuteMs?: number };

/** Endpoints one process sends to at the same time; each gets its own sequential chain. */
const MAX_BUSY_ENDPOINTS = 50;

/**
 * Drives the same domain jobs as the Inngest functions when no Inngest server is configured
 * (the embedded default). State lives in PostgreSQL, so several instances can each run one:
 * claims are leased. Every tick fans out new events and claims due deliveries of endpoints this
 * process is not already sending to, so a slow endpoint delays only its own deliveries.
 */
export function startInProcessRunner({ db, clock = () => new Date(), tickMs = 200, minuteMs = 60_000 }: RunnerOptions) {
  let stopped = false;
  const busy = new Map<string, Promise<void>>();

  const webhookTick = async () => {
    const now = clock();
    await dispatchOutboxEvents(db, now);
    if (busy.size >= MAX_BUSY_ENDPOINTS) return;
    const groups = await claimDueDeliveries(db, now, { busyEndpoints: busy.keys(), limit: 100 });
    for (const group of groups) {
      const sending = deliverGroup(db, group, now).finally(() => busy.delete(group.endpointId));
      busy.set(group.endpointId, sending);
    }
  };

  const loop = (name: string, everyMs: number, job: () => Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = job()
        .then(() => undefined)
        .catch((error: unknown) => logger.error({ err: error, job: name }, 'background job failed'))
        .finally(() => {
          if (!stopped) timer = setTimeout(tick, everyMs);
        });
    };
    timer = setTimeout(tick, 0);
    return async () => {
      clearTimeout(timer);
      await running;
    };
  };
  const stops = [loop('webhooks', tickMs, webhookTick), loop('minute', minuteMs, () => runMinuteJobs(db, clock()))];
  return {
    async stop() {
      stopped = true;
      await Promise.all(stops.map((stop) => stop()));
      await Promise.all(busy.values());
    },
  };
}

/** Which engine drives the jobs: Inngest when it is configured, else this runner (or none). */
export function jobEngine(env: NodeJS.ProcessEnv = process.env): 'inngest' | 'in-process' | 'off' {
  if (env.JOB_RUNNER === 'off') return 'off';
  if (env.JOB_RUNNER === 'inngest' || env.INNGEST_SIGNING_KEY || env.INNGEST_DEV) return 'inngest';
  return 'in-process';
}
