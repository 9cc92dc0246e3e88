import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../lib/db/client';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { createPerson, createTenant, testContext, type Person, type Tenant } from '../../lib/testing/factories';
import type { Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';

/**
 * What the webhook tests stand on: a database of their own with a tenant and an admin who may
 * manage webhooks, a clock they control from `T0`, and the receivers they start, stopped at
 * the end. `settled`: the tenant's own set-up events are delivered (to nobody) before any
 * endpoint exists, so that a test's endpoints see only the test's events.
 */
export function webhookTestbed(T0: Date, options: { settled?: boolean } = {}) {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>> | undefined;
  let tenant: Tenant | undefined;
  let admin: Person | undefined;
  const receivers: Receiver[] = [];
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the webhook testbed is used before its beforeAll ran');
    return value;
  };
  const bed = {
    get db(): Db {
      return ready(iso).db;
    },
    get tenant(): Tenant {
      return ready(tenant);
    },
    get admin(): Person {
      return ready(admin);
    },
    /** For a second connection of the test's own (pg). */
    get databaseUrl(): string {
      return ready(iso).url;
    },
    /** The receivers a test started: stopped after the file's tests. */
    receivers,
    at: (ms: number) => new Date(T0.getTime() + ms),
    /** Verb contexts on this database at `now`: the system's, and the admin's (who manages the endpoints). */
    system: (now: Date = T0) => testContext(bed.db, { now }),
    asAdmin: (now: Date = T0) => testContext(bed.db, { now, principal: bed.admin.principal }),
  };
  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    tenant = await createTenant({}, iso.db);
    admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, iso.db);
    if (options.settled) await runWebhookJobs(bed.system());
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await iso?.close();
  });
  return bed;
}
