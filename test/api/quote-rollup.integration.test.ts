import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import type { DbOrTx } from '../../lib/db/client';
import { runMinuteJobs } from '../../lib/jobs/run-jobs';
import { countQuotesPerDay } from '../../lib/overview/store';
import { QUOTE_ROLLUP_MARK, rollUpQuoteOutcomes } from '../../lib/quotes/store';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
type Outcome = 'succeeded' | 'requires_input' | 'failed';
type PerDay = { day: string; succeeded: number; requiresInput: number; failed: number };

/** The business's Live quotes per UTC day and outcome, counted from the quotes themselves. */
async function rawPerDay(db: DbOrTx, t: Tenant): Promise<Record<string, PerDay>> {
  const rows = await db.$queryRaw<{ day: string; outcome: Outcome; n: number }[]>`
    SELECT to_char(qi.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, r.outcome::text AS outcome, count(*)::int AS n
    FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
    WHERE qi.business_id = ${t.businessId}::uuid AND qi.environment_id = ${t.environments.live}::uuid GROUP BY 1, 2`;
  const days: Record<string, PerDay> = {};
  for (const row of rows) {
    const day = (days[row.day] ??= { day: row.day, succeeded: 0, requiresInput: 0, failed: 0 });
    day[row.outcome === 'requires_input' ? 'requiresInput' : row.outcome] += row.n;
  }
  return days;
}

/** What the Overview reads: the rollup plus the quotes made since its mark, per day of the last 14. */
async function overviewPerDay(db: DbOrTx, t: Tenant): Promise<Record<string, PerDay>> {
  const since = new Date(Math.floor(Date.now() / DAY) * DAY - 13 * DAY);
  return Object.fromEntries((await countQuotesPerDay(db, t.businessId, t.environments.live, since)).map((d) => [d.day, d]));
}

/**
 * Issue 31: the Overview's quotes per day come from an hourly rollup that a minute job adds the
 * settled quotes to, plus the quotes made since its mark. Whatever the job has done, the two
 * together equal the quotes, outcome by outcome, and each quote is counted once.
 */
describe('quotes rolled up by the hour (a database of its own: the test moves the job\'s mark)', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  let tenant: Tenant;
  let other: Tenant;
  let n = 0;

  /** A quote as the quote path writes it (intent and receipt), made at `at`. */
  async function quote(t: Tenant, at: Date, outcome: Outcome, environment: 'live' | 'test' = 'live') {
    n++;
    await iso.db.$executeRaw`
      WITH intent AS (
        INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, business_id, status, source, idempotency_scope,
          idempotency_key, request_fingerprint, request_correlation_id, inputs, created_at, updated_at)
        VALUES (gen_random_uuid(), ${t.workspaceId}::uuid, ${t.projectId}::uuid, ${t.environments[environment]}::uuid, ${t.bookId}::uuid,
          ${t.businessId}::uuid, ${outcome}::"QuoteIntentStatus", 'api', 'api', ${`rollup-${n}`}, 'f', ${`rollup-${n}`}, '{}', ${at}, ${at})
        RETURNING id)
      INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, missing_inputs, idempotency_key, request_correlation_id, latency_ms, created_at)
      SELECT gen_random_uuid(), id, ${outcome}::"ReceiptOutcome", 'api', '{}', ${`rollup-${n}`}, ${`rollup-${n}`}, 1, ${at} FROM intent`;
  }

  const rolledByHour = async (t: Tenant) =>
    Object.fromEntries(
      (await iso.db.quoteOutcomeHourly.findMany({ where: { businessId: t.businessId, environmentId: t.environments.live } })).map((h) => [
        `${h.hour.toISOString()} ${h.outcome}`,
        Number(h.quotes),
      ]),
    );
  const rawByHour = async (t: Tenant, before: Date) =>
    Object.fromEntries(
      (
        await iso.db.$queryRaw<{ key: string; n: number }[]>`
          SELECT to_char(date_trunc('hour', qi.created_at, 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') || ' ' || r.outcome AS key, count(*)::int AS n
          FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
          WHERE qi.business_id = ${t.businessId}::uuid AND qi.environment_id = ${t.environments.live}::uuid AND qi.created_at < ${before} GROUP BY 1`
      ).map((r) => [r.key, r.n]),
    );
  const mark = async () => (await iso.db.rollupMark.findUniqueOrThrow({ where: { name: QUOTE_ROLLUP_MARK } })).through;

  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    [tenant, other] = [await createTenant({}, iso.db), await createTenant({}, iso.db)];
    // As if the job had last run four days ago.
    await iso.db.rollupMark.update({ where: { name: QUOTE_ROLLUP_MARK }, data: { through: new Date(Math.floor(Date.now() / HOUR) * HOUR - 4 * DAY) } });
  });
  afterAll(async () => {
    await iso.close();
  });

  it('equals the quotes after a mixed workload over three days, before the job runs, after it, and after it runs again', async () => {
    const now = Date.now();
    for (const [i, ago] of [3 * DAY + 3 * HOUR, DAY + HOUR, 5 * HOUR, 2 * HOUR, 10 * MINUTE, MINUTE].entries()) {
      const at = new Date(now - ago);
      await quote(tenant, at, 'succeeded');
      if (i % 2 === 0) await quote(tenant, at, 'requires_input');
      if (i >= 3) await quote(tenant, at, 'failed');
      await quote(tenant, at, 'succeeded', 'test'); // Test quotes are not the Overview's
      await quote(other, at, 'succeeded'); // nor another business's
    }
    const expected = await rawPerDay(iso.db, tenant);
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(3);
    expect(await overviewPerDay(iso.db, tenant)).toEqual(expected); // all of them since the mark

    // The job counts what is older than five minutes (here 5 of the 6 instants, both businesses,
    // both environments), once; the Overview takes the rest from the quotes.
    // Of the five older instants: the tenant's Live 5 succeeded + 3 requiring input + 2 failed, its Test 5, the other's 5.
    expect(await rollUpQuoteOutcomes(iso.db)).toBe(5 + 3 + 2 + 5 + 5);
    const through = await mark();
    expect(Math.abs(through.getTime() - (Date.now() - 5 * MINUTE))).toBeLessThan(MINUTE);
    expect(await rolledByHour(tenant)).toEqual(await rawByHour(tenant, through));
    expect(await overviewPerDay(iso.db, tenant)).toEqual(expected);

    // Again at once: nothing new is old enough; nothing is counted twice.
    expect(await rollUpQuoteOutcomes(iso.db)).toBe(0);
    expect(await overviewPerDay(iso.db, tenant)).toEqual(expected);
    expect(await overviewPerDay(iso.db, other)).toEqual(await rawPerDay(iso.db, other));
  });

  it('counts a quote past the mark under its receipt\'s outcome after the sweep marks it expired', async () => {
    const at = new Date(Date.now() - MINUTE);
    await quote(tenant, at, 'succeeded');
    await quote(tenant, at, 'requires_input');
    await iso.db.quoteIntent.updateMany({ where: { businessId: tenant.businessId, createdAt: at }, data: { status: 'expired' } });
    const today = at.toISOString().slice(0, 10);
    const counted = (await overviewPerDay(iso.db, tenant))[today];
    expect(counted).toEqual((await rawPerDay(iso.db, tenant))[today]);
    expect(counted.succeeded).toBeGreaterThanOrEqual(1);
    expect(counted.requiresInput).toBeGreaterThanOrEqual(1);
  });

  it('two runs at once take turns: every quote counted once', async () => {
    for (let i = 0; i < 5; i++) await quote(tenant, new Date(Date.now() - 2_000), i % 2 ? 'failed' : 'succeeded');
    // Three runs start while the mark is held (as a slow run would hold it), with no settle time:
    // everything made so far is counted, by one run or another, once.
    let runs: Promise<number[]> | undefined;
    await iso.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM rollup_marks WHERE name = ${QUOTE_ROLLUP_MARK} FOR UPDATE`;
      runs = Promise.all([rollUpQuoteOutcomes(iso.db, 0), rollUpQuoteOutcomes(iso.db, 0), rollUpQuoteOutcomes(iso.db, 0)]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const counted = await runs!;
    expect(counted.filter((c) => c > 0)).toHaveLength(1);
    expect(counted.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5);
    const through = await mark();
    expect(await rolledByHour(tenant)).toEqual(await rawByHour(tenant, through));
    expect(await overviewPerDay(iso.db, tenant)).toEqual(await rawPerDay(iso.db, tenant));
  });

  it('leaves out a quote that commits after the mark passed its time (what the settle time is for)', async () => {
    const before = await overviewPerDay(iso.db, tenant);
    await quote(tenant, new Date((await mark()).getTime() - MINUTE), 'succeeded');
    expect(await rollUpQuoteOutcomes(iso.db, 0)).toBe(0);
    const today = new Date((await mark()).getTime() - MINUTE).toISOString().slice(0, 10);
    expect((await overviewPerDay(iso.db, tenant))[today]).toEqual(before[today]);
    expect((await rawPerDay(iso.db, tenant))[today].succeeded).toBe(before[today].succeeded + 1);
  });

  it('counts the quotes of the millisecond its mark stops in once (the mark is kept to the millisecond)', async () => {
    const counted = async () => Object.values(await rolledByHour(other)).reduce((a, b) => a + b, 0);
    const before = await counted();
    // A quote in every millisecond of 400, half a minute ago, past the mark (as if the job had last
    // run a second before them, when the other business had no quotes since a minute ago): each run below stops inside them.
    const start = Date.now() - 30_000;
    await iso.db.rollupMark.update({ where: { name: QUOTE_ROLLUP_MARK }, data: { through: new Date(start - 1_000) } });
    await iso.db.$executeRaw`
      WITH intent AS (
        INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, business_id, status, source, idempotency_scope,
          idempotency_key, request_fingerprint, request_correlation_id, inputs, created_at, updated_at)
        SELECT gen_random_uuid(), ${other.workspaceId}::uuid, ${other.projectId}::uuid, ${other.environments.live}::uuid, ${other.bookId}::uuid,
          ${other.businessId}::uuid, 'succeeded', 'api', 'api', 'ms-' || ms, 'f', 'ms-' || ms, '{}', at, at
          FROM generate_series(0, 399) AS ms, LATERAL (SELECT ${new Date(start)}::timestamptz + ms * interval '1 millisecond' AS at) t
        RETURNING id, created_at)
      INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, missing_inputs, idempotency_key, request_correlation_id, latency_ms, created_at)
      SELECT gen_random_uuid(), id, 'succeeded', 'api', '{}', 'ms', 'ms', 1, created_at FROM intent`;
    // Ten runs, each stopping 40 ms further in, at whatever fraction of a millisecond the
    // database's clock reads: a mark rounded to the millisecond went back half the time and
    // counted the quote of that millisecond again.
    for (let run = 1; run <= 10; run++) {
      const [{ settle }] = await iso.db.$queryRaw<{ settle: number }[]>`
        SELECT floor(extract(epoch FROM now() - ${new Date(start + 40 * run - 20)}::timestamptz) * 1000)::int AS settle`;
      await rollUpQuoteOutcomes(iso.db, settle);
      expect((await mark()).getTime()).toBeLessThan(start + 400);
    }
    await rollUpQuoteOutcomes(iso.db, 0);
    expect((await counted()) - before).toBe(400);
    expect(await overviewPerDay(iso.db, other)).toEqual(await rawPerDay(iso.db, other));
  });
});

describe('quotes per day on the Overview', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('counts a quote of each outcome made through the API at once, and the minute jobs count them once they settle', async () => {
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const bodies = [
      { ...demoExample },
      { ...demoExample },
      { offeringId: demoExample.offeringId, factors: { home_size: 'medium' } },
      { offeringId: 'no_such_offering', factors: demoExample.factors },
    ];
    for (const body of bodies) {
      const made = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: { businessId: tenant.businessId, bookId: tenant.bookId, ...body } });
      expect(made.status).toBe(201);
    }
    const today = new Date().toISOString().slice(0, 10);
    const expected = { day: today, succeeded: 2, requiresInput: 1, failed: 1 };
    const read = async () => (await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: owner.token })).body.data.overview.quotesPerDay.at(-1);
    expect(await read()).toEqual(expected);
    const counts = await runMinuteJobs(testContext(testDb()));
    expect(counts).toHaveProperty('quoteHoursCounted');
    expect(await read()).toEqual(expected);
  });
});
