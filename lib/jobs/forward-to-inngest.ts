import { inngest } from '../../inngest/client';
import { processState } from '../context/process-state';
import { systemContext } from '../context/verb-context';
import { getDb } from '../db/client';
import { logger } from '../observability/logger';
import { forwardDeliveries, type DeliveryQueuedEvent } from '../webhooks/forward-deliveries';
import { jobEngine } from './in-process-runner';

/** The events' way to Inngest: its event API (Inngest Cloud, or INNGEST_BASE_URL when self-hosted). */
export const sendToInngest = (events: DeliveryQueuedEvent[]) => inngest.send(events);


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
  if (forwarding.engine !== 'inngest') return;
  if (forwarding.running) {
    forwarding.again = true;
    return;
  }
  forwarding.running = true;
  void (async () => {
    do {
      forwarding.again = false;
      await forwardDeliveries(systemContext(getDb(), 'forward-deliveries'), { send: sendToInngest }).catch((error: unknown) =>
        logger.warn({ err: error }, 'webhook deliveries not handed to Inngest yet; the minute sweep retries'),
      );
    } while (forwarding.again);
    forwarding.running = false;
  })();
}
