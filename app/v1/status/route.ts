import { defineRoute } from '@/lib/http/define-route';
import { checkDatabase } from '@/lib/db/check-database';
import { jobEngine } from '@/lib/jobs/in-process-runner';
import { checkSealingKey } from '@/lib/sealing/check-sealing-key';
import { statusContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(statusContract, async ({ db, now }) => {
  await checkDatabase(db);
  const engine = jobEngine();
  const signing = engine === 'off' ? null : await checkSealingKey(db);
  const jobs = {
    engine,
    webhookDelivery: !signing ? ('off' as const) : signing.usable ? ('running' as const) : ('refused' as const),
    reason: signing && !signing.usable ? signing.reason : null,
  };
  return { data: { status: jobs.webhookDelivery === 'refused' ? ('degraded' as const) : ('ok' as const), version: '1.0.0', time: now.toISOString(), jobs } };
});
