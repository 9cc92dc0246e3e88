import type { VerbContext } from '../context/verb-context';
import { checkDatabase } from '../db/check-database';
import { jobEngine } from '../jobs/in-process-runner';
import { checkSealingKey } from '../sealing/check-sealing-key';

/**
 * How long liveness waits for the database: a database that does not answer (a dropped network,
 * a stopped host) must not hold the check until the client gives up. The contract says it too.
 */
export const STATUS_DATABASE_WAIT_MS = 2_000;

export type ServiceStatus = {
  status: 'ok' | 'degraded';
  version: string;
  time: string;
  database: 'reachable' | 'unreachable';
  jobs: { engine: 'in-process' | 'inngest' | 'off'; webhookDelivery: 'running' | 'refused' | 'off'; reason: string | null };
};

/**
 * GET /v1/status, liveness: it always answers (never 500), saying what this instance lacks. A
 * database it cannot reach, or a sealing key it cannot use, is `degraded`; readiness
 * (lib/receipts/readiness.ts) is what keeps such an instance out of rotation.
 */
export async function getServiceStatus({ db, now }: Pick<VerbContext, 'db' | 'now'>): Promise<ServiceStatus> {
  const engine = jobEngine();
  const base = { version: '1.0.0', time: now.toISOString() };
  const reached = await withinWait(checkDatabase(db)).then(
    () => true,
    () => false,
  );
  if (!reached) {
    const jobs = { engine, webhookDelivery: engine === 'off' ? ('off' as const) : ('refused' as const), reason: engine === 'off' ? null : 'the database cannot be reached' };
    return { ...base, status: 'degraded', database: 'unreachable', jobs };
  }
  const signing = engine === 'off' ? null : await checkSealingKey(db).catch(() => ({ usable: false as const, reason: 'the sealing key could not be checked against the database' }));
  const jobs = {
    engine,
    webhookDelivery: !signing ? ('off' as const) : signing.usable ? ('running' as const) : ('refused' as const),
    reason: signing && !signing.usable ? signing.reason : null,
  };
  return { ...base, status: jobs.webhookDelivery === 'refused' ? 'degraded' : 'ok', database: 'reachable', jobs };
}

function withinWait<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the database did not answer in time')), STATUS_DATABASE_WAIT_MS);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
