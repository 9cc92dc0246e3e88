import { getDb } from '../../lib/db/client';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { inngest } from '../client';

/** Fans out new events and attempts due deliveries; the retry schedule itself lives in the database. */
export const deliverWebhooks = inngest.createFunction(
  { id: 'deliver-webhooks', concurrency: { limit: 1 }, triggers: [{ cron: '* * * * *' }, { event: 'webhooks/deliver.requested' }] },
  async ({ step }) => step.run('dispatch-and-deliver', () => runWebhookJobs(getDb(), new Date())),
);
