import { systemContext } from '../../lib/context/verb-context';
import { MINUTE_JOBS } from '../../lib/jobs/run-jobs';
import { inngest } from '../client';
import { productionDeps, type FunctionDeps } from './deps';

/** Each of the once-a-minute jobs as a cron function of its own, answering what it counted. */
export function createMinuteJobs(deps: FunctionDeps = productionDeps) {
  return Object.entries(MINUTE_JOBS).map(([counted, job]) =>
    inngest.createFunction({ id: job.id, triggers: [{ cron: '* * * * *' }] }, async ({ step }) => ({
      [counted]: await step.run(job.id, () => job.run(systemContext(deps.db(), job.id, deps.clock()))),
    })),
  );
}

export const minuteJobs = createMinuteJobs();
