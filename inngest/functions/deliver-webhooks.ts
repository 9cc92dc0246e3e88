import { getDb } from '../../lib/db/client';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { inngest } from '../client';

/** Passes in one run: the cron fires each minute, and a run keeps going while work is due. */
const MAX_PASSES = 30;

/** Fans out new events and attempts due deliveries; the retry schedule itself lives in the database. */
export const deliverWebhooks = inngest.createFunction(
  { id: 'deliver-webhooks', concurrency: { limit: 1 }, triggers: [{ cron: '* * * * *' }, { event: 'webhooks/deliver.requested' }] },
  async ({ step }) => {
    const total = { events: 0, deliveries: 0, attempted: 0 };
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const done = await step.run(`pass-${pass}`, () => runWebhookJobs(getDb(), new Date()));
      total.events += done.events;
      total.deliveries += done.deliveries;
      total.attempted += done.attempted;
      if (done.events === 0 && done.attempted === 0) break;
    }
    return total;
  },
);
