// The service's job runner in a process of its own, on the database DATABASE_URL names: what
// test/webhooks/crash-history.integration.test.ts kills with SIGKILL while its sends are in flight.
import { createDb } from '../../lib/db/client';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';

const { prisma } = createDb(process.env.DATABASE_URL!);
startInProcessRunner({ db: prisma, tickMs: 50, minuteMs: 3_600_000 });
