import { getDb } from '../../lib/db/client';
import { runMinuteJobs } from '../../lib/jobs/run-jobs';
import { inngest } from '../client';

/** Spec 3.2's periodic sweep (about once a minute), plus expiry of intents that waited too long. */
export const sweepRotatedKeys = inngest.createFunction(
  { id: 'sweep-rotated-keys', triggers: [{ cron: '* * * * *' }] },
  async ({ step }) => step.run('sweep', () => runMinuteJobs(getDb(), new Date())),
);
