import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { runMinuteJobs, runWebhookJobs } from './run-jobs';

export type RunnerOptions = { db: Db; clock?: () => Date; tickMs?: number; minuteMs?: number };

/**
 * Drives the same domain jobs as the Inngest functions when no Inngest server is configured
 * (the embedded default). State lives in PostgreSQL, so several instances can each run one:
 * claims use SKIP LOCKED and leases. A tick that is still running is never started twice.
 */
export function startInProcessRunner({ db, clock = () => new Date(), tickMs = 200, minuteMs = 60_000 }: RunnerOptions) {
  let stopped = false;
  const loop = (name: string, everyMs: number, job: (now: Date) => Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = job(clock())
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
  const stops = [
    loop('webhooks', tickMs, (now) => runWebhookJobs(db, now)),
    loop('minute', minuteMs, (now) => runMinuteJobs(db, now)),
  ];
  return {
    async stop() {
      stopped = true;
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}

/** Which engine drives the jobs: Inngest when it is configured, else this runner (or none). */
export function jobEngine(env: NodeJS.ProcessEnv = process.env): 'inngest' | 'in-process' | 'off' {
  if (env.JOB_RUNNER === 'off') return 'off';
  if (env.JOB_RUNNER === 'inngest' || env.INNGEST_SIGNING_KEY || env.INNGEST_DEV) return 'inngest';
  return 'in-process';
}
