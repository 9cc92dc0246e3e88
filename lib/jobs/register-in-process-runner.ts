import { processState } from '../process/state';

declare module '../process/state' {
  interface ProcessState {
    /** Settles once the in-process job runner has stopped (scripts/serve.mjs waits for it). */
    jobsStopped?: Promise<void>;
  }
}
import { getDb } from '../db/client';
import { jobEngine, startInProcessRunner } from './in-process-runner';
import { settings } from '../settings/settings';

/**
 * Starts the in-process job runner (webhook delivery, key sweep) in this server process when no
 * Inngest is configured, and stops it on SIGTERM/SIGINT; scripts/serve.mjs waits for that
 * (bounded) before the process exits. Called by instrumentation.ts, in the Node.js runtime only.
 */
export function registerInProcessRunner(): void {
  if (jobEngine() !== 'in-process' || !settings().DATABASE_URL) return;
  const runner = startInProcessRunner({ db: getDb() });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void (processState.jobsStopped ??= runner.stop()));
}
