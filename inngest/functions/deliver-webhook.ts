import { eventType } from 'inngest';
import { systemContext } from '../../lib/context/verb-context';
import { deliverThrough, type DeliveryProgress } from '../../lib/webhooks/deliver-due-webhooks';
import { checkSealingKey } from '../../lib/sealing/check-sealing-key';
import { DELIVERY_QUEUED_EVENT, deliveryQueuedDataSchema } from '../../lib/webhooks/forward-deliveries';
import { inngest } from '../client';
import { productionDeps, type FunctionDeps } from './deps';

/**
 * Passes one run makes at most. A delivery needs at most 5 attempts; more passes happen only
 * while other workers hold it or its endpoint. A run that ends with its delivery still pending
 * leaves it to the sweep, which hands it to Inngest again once it is overdue.
 */
const MAX_PASSES = 50;

/**
 * One run per delivery. Each pass is a step that sends the delivery (after any of its
 * endpoint's earlier due deliveries, in outbox order) and records the attempt; between passes
 * the run sleeps, durably, until the time the database gives for the next attempt (the fixed
 * schedule), up to success, exhaustion or cancellation. The concurrency key keeps to one
 * running step per endpoint, so an endpoint receives its events one at a time and in order;
 * a run asleep until its retry holds nothing, so a failing delivery does not block the rest.
 */
export function createDeliverWebhook(deps: FunctionDeps = productionDeps) {
  return inngest.createFunction(
    {
      id: 'deliver-webhook',
      // Validated by Inngest before the run: a malformed event fails for good, touching nothing.
      triggers: [eventType(DELIVERY_QUEUED_EVENT, { schema: deliveryQueuedDataSchema })],
      concurrency: [{ key: 'event.data.endpointId', limit: 1 }],
    },
    async ({ event, step }) => {
      const { deliveryId } = event.data;
      let progress: DeliveryProgress | undefined;
      for (let pass = 1; pass <= MAX_PASSES; pass++) {
        progress = await step.run(`pass-${pass}`, async () => {
          // An instance that cannot open the signing secrets claims nothing: the step fails
          // before any claim, and Inngest retries it (on a healthy instance, if there is one).
          const signing = await checkSealingKey(deps.db());
          if (!signing.usable) throw new Error(`webhook delivery refused on this instance: ${signing.reason}`);
          return deliverThrough(systemContext(deps.db(), 'deliver-webhook', deps.clock()), { deliveryId });
        });
        if (progress.retryAt === null) break;
        await step.sleepUntil(`wait-${pass}`, progress.retryAt);
      }
      return progress;
    },
  );
}

export const deliverWebhook = createDeliverWebhook();
