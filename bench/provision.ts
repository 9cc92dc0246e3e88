// What the benchmark runs against, made with the domain code itself (lib/testing/factories →
// provisionTenant, createApiKey, createBusiness, createEndpoint): no hand-written rows.
import { createBookVersion } from '../lib/books/create-book-version';
import { demoBookArtifact } from '../lib/books/demo-book';
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

/** The demo book with every offering's base price moved by `percent` (a variant within the default 20% price guard). */
export function repricedDemoBook(percent: number): typeof demoBookArtifact {
  const artifact = structuredClone(demoBookArtifact);
  for (const offering of artifact.offerings) offering.basePriceMinor = Math.round((offering.basePriceMinor * (100 + percent)) / 100);
  return artifact;
}

/** Connects `count` new businesses to the tenant's project (6 at a time); returns their ids. */
export async function connectBusinesses(db: Db, tenant: { workspaceId: string; projectId: string }, count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  await inParallel(count, 6, async (i) => {
    const business = await createBusiness(testContext(db), { workspaceId: tenant.workspaceId, name: `${name} ${i + 1}`, connection: { projectId: tenant.projectId, kind: 'direct' } });
    ids.push(business.id);
  });
  return ids;
}

/**
 * A tenant like the main one (demo book published to Test and Live, keys, a person with every
 * permission, `businesses` businesses including its own) and a second version of its book whose
 * prices are `variantPercent` away: what the experiments group runs an experiment on.
 */
export async function provisionExperimentTenant(db: Db, options: { businesses: number; variantPercent: number }) {
  const tenant = await createTenant({}, db);
  const person = await createPerson(tenant, { permissions: 'all' }, db);
  const businessIds = [tenant.businessId, ...(await connectBusinesses(db, tenant, options.businesses - 1, 'Experiment business'))];
  const variant = await createBookVersion(testContext(db), { bookId: tenant.bookId, artifact: repricedDemoBook(options.variantPercent) });
  return { tenant, person, businessIds, variantVersionId: variant.id };
}

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

  const businessIds = [tenant.businessId, ...(await connectBusinesses(db, tenant, options.businesses - 1, 'Bench business'))];

  const accounts: { accountId: string; key: string }[] = [];
  await inParallel(options.accounts, 4, async () => {
    const account = await createTenant({}, db);
    accounts.push({ accountId: account.projectId, key: account.keys.test }, { accountId: account.projectId, key: account.keys.live });
  });

  const hooks = await createTenant({}, db);
  const hooksPerson = await createPerson(hooks, { permissions: 'all' }, db);
  return { tenant, person, businessIds, accounts, hooks, hooksPerson };
}
