import { processState } from '../process/state';
import { systemContext } from '../context/verb-context';
import { getDb } from '../db/client';
import { logger } from '../observability/logger';
import { forwardDeliveries, type SendToInngest } from '../webhooks/forward-deliveries';
import { jobEngine } from './in-process-runner';

declare module '../process/state' {
  interface ProcessState {
    /** Forwarding queued deliveries to Inngest, one run at a time. */
    forwarding?: { running: boolean; again: boolean; engine?: string };
    /** Inngest's event API, as the composition root gives it. */
    inngestSender?: SendToInngest;
  }
}

/**
 * How queued deliveries reach Inngest's event API, given by the composition root that serves the
 * API (app/api-router.ts): this module, and the route wrapper that calls it, never load the SDK.
 */
export function useInngestSender(send: SendToInngest): void {
  processState.inngestSender = send;
}


/**
 * Called after a request's writes have committed. With Inngest as the engine, hands the
 * deliveries those writes queued to Inngest at once, rather than at the minute sweep: one
 * forward at a time per process, and one more after it if writes came meanwhile. A failure is
 * logged; the deliveries stay in PostgreSQL and the sweep sends them. Otherwise does nothing
 * (the in-process runner finds due deliveries itself).
 */
export function forwardQueuedDeliveries(): void {
  const forwarding = (processState.forwarding ??= { running: false, again: false });
  forwarding.engine ??= jobEngine();
  const send = processState.inngestSender;
  if (forwarding.engine !== 'inngest' || !send) return;
  if (forwarding.running) {
    forwarding.again = true;
    return;
  }
  forwarding.running = true;
  void (async () => {
    do {
      forwarding.again = false;
      await forwardDeliveries(systemContext(getDb(), 'forward-deliveries'), { send }).catch((error: unknown) =>
        logger.warn({ err: error }, 'webhook deliveries not handed to Inngest yet; the minute sweep retries'),
      );
    } while (forwarding.again);
    forwarding.running = false;
  })();
}
