import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyPrincipal } from '../../lib/auth/principal';
import { demoExample } from '../../lib/books/demo-book';
import { runMinuteJobs } from '../../lib/jobs/run-jobs';
import { countQuotesPerDay } from '../../lib/overview/store';
import { createApiQuote } from '../../lib/quotes/create-api-quote';
import { rollUpQuotes } from '../../lib/quotes/quote-rollup';
import { api } from '../../lib/testing/api-client';
import { createPerson, createTenant, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Issue 31: the Overview's quotes per day come from an hourly rollup a minute job keeps, plus the
 * quotes made since its mark. After a mixed workload over several days it equals the quotes
 * themselves, outcome by outcome, whether or not the job has run since the last quote.
 */
describe('quotes rolled up by the hour', () => {
  let tenant: Tenant;
  let other: Tenant;
  let owner: Person;
  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    owner = await createPerson(tenant, { businessRole: 'owner' });
  });

  /** A quote through the API's own verb, made at `at` (its intent's created_at), in the tenant's Live or Test environment. */
  async function quoteAt(t: Tenant, at: Date, kind: 'succeeded' | 'requires_input' | 'failed', environment: 'live' | 'test' = 'live') {
    const principal: ApiKeyPrincipal = {
      kind: 'api_key',
      keyId: t.keyIds[environment],
      workspaceId: t.workspaceId,
      projectId: t.projectId,
      environmentId: t.environments[environment],
      environment,
      scopes: ['quotes:write'],
    };
    const factors = kind === 'requires_input' ? { home_size: 'medium' } : demoExample.factors;
    const offeringId = kind === 'failed' ? 'no_such_offering' : demoExample.offeringId;
    const { result } = await createApiQuote({ ...testContext(testDb(), { now: at, principal }), startedAt: performance.now() }, {
      businessId: t.businessId,
      bookId: t.bookId,
      offeringId,
      factors,
    } as Parameters<typeof createApiQuote>[1]);
    expect(result.quoteReceipt.outcome).toBe(kind);
  }

  /** The business's Live quotes per UTC day and outcome, counted from the quotes themselves. */
  async function rawPerDay(t: Tenant) {
    const rows = await testDb().$queryRaw<{ day: string; outcome: string; n: number }[]>`
      SELECT to_char(qi.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, r.outcome::text AS outcome, count(*)::int AS n
      FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
      WHERE qi.business_id = ${t.businessId}::uuid AND qi.environment_id = ${t.environments.live}::uuid GROUP BY 1, 2`;
    const days: Record<string, { day: string; succeeded: number; requiresInput: number; failed: number }> = {};
    for (const row of rows) {
      const day = (days[row.day] ??= { day: row.day, succeeded: 0, requiresInput: 0, failed: 0 });
      day[row.outcome === 'requires_input' ? 'requiresInput' : (row.outcome as 'succeeded' | 'failed')] += row.n;
    }
    return days;
  }

  const rolledPerDay = async (t: Tenant, since: Date) =>
    Object.fromEntries((await countQuotesPerDay(testDb(), t.businessId, t.environments.live, since)).map((d) => [d.day, d]));

  it('equals the quotes after a mixed workload over three days, before and after the job runs', async () => {
    const now = new Date();
    const since = new Date(Math.floor(now.getTime() / DAY) * DAY - 13 * DAY);
    // Quotes of earlier hours and days, as if made then, and some of today: all outcomes, in
    // Live, with Test quotes and another business's beside them that must not count.
    const times = [now.getTime() - 2 * DAY - 3 * HOUR, now.getTime() - DAY - HOUR, now.getTime() - 5 * HOUR, now.getTime() - 2 * HOUR, now.getTime() - 60_000];
    for (const [i, at] of times.entries()) {
      await quoteAt(tenant, new Date(at), 'succeeded');
      if (i % 2 === 0) await quoteAt(tenant, new Date(at), 'requires_input');
      if (i >= 3) await quoteAt(tenant, new Date(at), 'failed');
      await quoteAt(tenant, new Date(at), 'succeeded', 'test');
      await quoteAt(other, new Date(at), 'succeeded');
    }
    // The job counts again from before its previous mark: a run with a clock three days back,
    // then one now, counts these back-dated quotes (a real quote is never older than the mark
    // by more than the settle time).
    await rollUpQuotes(testContext(testDb(), { now: new Date(now.getTime() - 3 * DAY) }));
    await rollUpQuotes(testContext(testDb(), { now: new Date() }));
    const expected = await rawPerDay(tenant);
    expect(Object.keys(expected)).toHaveLength(3);
    expect(await rolledPerDay(tenant, since)).toEqual(expected);
    const hours = await testDb().quoteOutcomeHourly.findMany({ where: { businessId: tenant.businessId, environmentId: tenant.environments.live } });
    expect(hours.length).toBeGreaterThanOrEqual(5);

    // Quotes made after the job's mark count at once, through the API, before the job runs again.
    for (let i = 0; i < 3; i++) expect((await api('POST', '/v1/quotes', { key: tenant.keys.live, body: { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample } })).status).toBe(201);
    const overview = await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: owner.token });
    expect(overview.status).toBe(200);
    const afterQuotes = await rawPerDay(tenant);
    const today = now.toISOString().slice(0, 10);
    expect(overview.body.data.overview.quotesPerDay.filter((d: { succeeded: number; requiresInput: number; failed: number }) => d.succeeded + d.requiresInput + d.failed > 0))
      .toEqual(Object.values(afterQuotes).sort((a, b) => a.day.localeCompare(b.day)));
    expect(afterQuotes[today].succeeded).toBeGreaterThanOrEqual(5);

    // And once the job has run (as the minute jobs run it), the rollup alone holds them.
    const counts = await runMinuteJobs(testContext(testDb()));
    expect(counts.quoteHoursCounted).toBeGreaterThanOrEqual(0);
    expect(await rolledPerDay(tenant, since)).toEqual(afterQuotes);
    expect(await rolledPerDay(other, since)).toEqual(await rawPerDay(other));
  });

  it('survives an instance whose clock ran ahead: the next run takes back what it counted', async () => {
    const now = new Date();
    const since = new Date(Math.floor(now.getTime() / DAY) * DAY - 13 * DAY);
    await quoteAt(tenant, new Date(now.getTime() - 30_000), 'succeeded');
    await rollUpQuotes(testContext(testDb(), { now: new Date(now.getTime() + 2 * HOUR) }));
    // A quote made meanwhile is behind that mark: it counts once a run with a true clock has run.
    await quoteAt(tenant, new Date(), 'failed');
    await rollUpQuotes(testContext(testDb(), { now: new Date() }));
    expect(await rolledPerDay(tenant, since)).toEqual(await rawPerDay(tenant));
  });
});
