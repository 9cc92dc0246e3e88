// What the benchmark runs against, made with the domain code itself (lib/testing/factories →
// provisionTenant, createApiKey, createBusiness, createEndpoint): no hand-written rows.
import { createBusiness } from '../lib/businesses/create-business';
import type { Db } from '../lib/db/client';
import { createPerson, createTenant, testContext } from '../lib/testing/factories';

async function inParallel(count: number, width: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export type Provisioned = Awaited<ReturnType<typeof provision>>;

/**
 * The main tenant (demo book published to Test and Live, a Test and a Live key, a person with
 * every workspace permission), `businesses` businesses connected to its project, `accounts`
 * further tenants for the account surface, and a tenant of its own for webhooks.
 *
 * Why many businesses and accounts: spec 8's limits (120 public quotes per business per
 * minute, 600 account-surface requests per account and environment per minute) would turn
 * a sustained load on one business or account into 429s. The load is spread over enough of
 * them that every request does the full work, rate-limit bookkeeping included.
 */
export async function provision(db: Db, options: { businesses: number; accounts: number }) {
  const tenant = await createTenant({}, db);
  const person = await createPerson(tenant, { permissions: 'all' }, db);

  const businessIds = [tenant.businessId];
  await inParallel(options.businesses - 1, 6, async (i) => {
    const business = await createBusiness(testContext(db), {
      workspaceId: tenant.workspaceId,
      name: `Bench business ${i + 1}`,
      connection: { projectId: tenant.projectId, kind: 'direct' },
    });
    businessIds.push(business.id);
  });

  const accounts: { accountId: string; key: string }[] = [];
  await inParallel(options.accounts, 4, async () => {
    const account = await createTenant({}, db);
    accounts.push({ accountId: account.projectId, key: account.keys.test }, { accountId: account.projectId, key: account.keys.live });
  });

  const hooks = await createTenant({}, db);
  const hooksPerson = await createPerson(hooks, { permissions: 'all' }, db);
  return { tenant, person, businessIds, accounts, hooks, hooksPerson };
}
