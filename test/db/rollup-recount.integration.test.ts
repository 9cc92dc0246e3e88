// The migration that recounts the rollups (prisma/migrations/20261205080000_recount_rollups):
// rollups written before the marks were kept to the millisecond may count some rows twice; the
// migration must leave each rollup exactly as the minute jobs, as they are now, count the same rows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rollUpExperimentAcceptances,
  rollUpExperimentAccountQuotes,
  rollUpExperimentCommitments,
  rollUpExperimentQuotes,
} from '../../lib/experiments/store';
import { rollUpQuoteFunnel, rollUpQuoteOutcomes } from '../../lib/quotes/store';
import { createTenant, type Tenant } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { withClient } from '../../lib/testing/pg-client';

const RECOUNT = readFileSync(path.resolve('prisma/migrations/20261205080000_recount_rollups/migration.sql'), 'utf8');
const ROLLUPS = ['quote_outcomes_hourly', 'quote_funnel_daily', 'quote_prices_daily', 'quote_missing_inputs_daily', 'experiment_arm_daily'];
const EXPERIMENT = '5e1f0c3a-7d4b-4c2e-9a8f-0b1c2d3e4f50';
const VERSION = '6a2b1c3d-8e4f-4a5b-9c6d-7e8f9a0b1c2d';

describe('the rollups\' recount (a database of its own: the test moves every mark)', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  let tenant: Tenant;
  const sql = (text: string, params: unknown[] = []) => withClient(iso.url, async (c) => (await c.query(text, params)).rows);

  /** Every rollup table's rows, in key order, as text: what a read of them sees. */
  const snapshot = async () =>
    Object.fromEntries(await Promise.all(ROLLUPS.map(async (table) => [table, (await sql(`SELECT t::text AS row FROM ${table} t ORDER BY 1`)).map((r) => r.row)])));

  /** What the minute jobs do, with no settle time: everything made so far is counted. */
  const rollUpEverything = async () => [
    await rollUpQuoteOutcomes(iso.db, 0),
    await rollUpQuoteFunnel(iso.db, 0),
    await rollUpExperimentQuotes(iso.db, 0),
    await rollUpExperimentAcceptances(iso.db, 0),
    await rollUpExperimentAccountQuotes(iso.db, 0),
    await rollUpExperimentCommitments(iso.db, 0),
  ];

  const recount = () =>
    withClient(iso.url, async (c) => {
      await c.query('BEGIN');
      await c.query(RECOUNT);
      await c.query('COMMIT');
    });

  /**
   * `count` quotes, intent and receipt, made `agoMs` before now (several in each millisecond), of
   * every shape the rollups tell apart: outcome, environment, offering, currency and price,
   * unanswered questions, pinned version or none, in an experiment's arm or not, with no business.
   * Quotes made before 2 December carry their price on the receipt only (`priceOnIntent: false`),
   * but for those in an experiment (the migration that added the intent's copies filled those in).
   */
  const plantQuotes = (count: number, agoMs: number, prefix: string, { priceOnIntent = true } = {}) =>
    sql(
      `WITH q AS (
         SELECT i, $6 || i AS key, (ARRAY['succeeded', 'requires_input', 'failed'])[1 + i % 3] AS outcome,
                now() - make_interval(secs => ($4::int - (i / 3) * 7) / 1000.0) AS at,
                CASE WHEN i % 3 = 0 THEN 1000 + i % 7 * 250 END AS total_minor, CASE WHEN i % 3 = 0 THEN (ARRAY['EUR', 'USD'])[1 + i % 2] END AS currency,
                CASE WHEN i % 6 = 0 THEN '${EXPERIMENT}'::uuid END AS experiment_id, CASE WHEN i % 6 = 0 THEN (ARRAY['control', 'cheaper'])[1 + i % 4 / 2] END AS arm
           FROM generate_series(0, $5::int - 1) AS i
       ), intent AS (
         INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, business_id, status, source, idempotency_scope,
           idempotency_key, request_fingerprint, request_correlation_id, inputs, created_at, updated_at,
           experiment_id, experiment_arm, total_minor, currency)
         SELECT gen_random_uuid(), $1::uuid, $2::uuid, CASE WHEN i % 5 = 4 THEN $7::uuid ELSE $3::uuid END, $8::uuid,
                CASE WHEN i % 11 = 10 THEN NULL ELSE $9::uuid END, outcome::"QuoteIntentStatus", 'api', 'api',
                key, 'f', key, CASE WHEN i % 4 = 0 THEN '{}'::json ELSE json_build_object('offeringId', 'offering-' || i % 2) END, at, at,
                experiment_id, arm,
                CASE WHEN $10 OR experiment_id IS NOT NULL THEN total_minor END, CASE WHEN $10 OR experiment_id IS NOT NULL THEN currency END
           FROM q
         RETURNING id, idempotency_key, business_id, environment_id, created_at
       ), receipt AS (
         INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, missing_inputs, idempotency_key, request_correlation_id, latency_ms, created_at,
           book_version_id, computation)
         SELECT gen_random_uuid(), intent.id, q.outcome::"ReceiptOutcome", 'api',
                CASE WHEN q.outcome = 'requires_input' THEN ARRAY['size', 'colour'] ELSE '{}' END, q.key, q.key, 1, q.at,
                CASE WHEN q.i % 2 = 0 THEN '${VERSION}'::uuid END,
                CASE WHEN q.outcome = 'succeeded' THEN json_build_object('currency', q.currency, 'totalMinor', q.total_minor) END
           FROM intent JOIN q ON q.key = intent.idempotency_key
         RETURNING id, quote_intent_id
       )
       INSERT INTO quote_acceptances (id, quote_intent_id, receipt_id, workspace_id, project_id, environment_id, business_id, total_minor, currency,
         consent_text, request_correlation_id, experiment_id, experiment_arm, created_at)
       SELECT gen_random_uuid(), intent.id, receipt.id, $1::uuid, $2::uuid, intent.environment_id, $9::uuid, q.total_minor, q.currency,
              'I agree', q.key, q.experiment_id, q.arm, q.at
         FROM intent JOIN receipt ON receipt.quote_intent_id = intent.id JOIN q ON q.key = intent.idempotency_key
        WHERE q.outcome = 'succeeded' AND intent.business_id IS NOT NULL AND q.total_minor % 500 = 0`,
      [tenant.workspaceId, tenant.projectId, tenant.environments.live, agoMs, count, prefix, tenant.environments.test, tenant.bookId, tenant.businessId, priceOnIntent],
    );

  /**
   * `count` account-surface quotes, priced in an arm or not; two in three committed, one of those
   * at once and the other a day later (a commitment counts on the day it is confirmed).
   */
  const plantAccountQuotes = (count: number, agoMs: number, prefix: string) =>
    sql(
      `WITH aq AS (
         INSERT INTO account_quotes (id, project_id, environment_id, idempotency_key, request_fingerprint, state, disposition, low_cents, high_cents,
           response, experiment, created_at)
         SELECT gen_random_uuid(), $1::uuid, $2::uuid, $4 || i, 'f', 'quoted', 'auto', 2000 + i % 3 * 100, 2000 + i % 3 * 100,
                jsonb_build_object('decision', CASE WHEN i % 4 = 3 THEN 'needs_review' ELSE 'priced' END, 'currency', 'EUR'),
                CASE WHEN i % 5 <> 4 THEN jsonb_build_object('experiment_id', '${EXPERIMENT}', 'arm', (ARRAY['control', 'cheaper'])[1 + i % 2]) END,
                now() - make_interval(secs => ($3::int - i * 5) / 1000.0)
           FROM generate_series(0, $5::int - 1) AS i
         RETURNING id, created_at, low_cents
       )
       INSERT INTO commitments (id, account_quote_id, external_ref, confirmed_at)
       SELECT gen_random_uuid(), id, 'ref-' || id, created_at + CASE WHEN low_cents = 2200 THEN interval '1 day' ELSE interval '1 millisecond' END
         FROM aq WHERE low_cents <> 2100`,
      [tenant.projectId, tenant.environments.live, agoMs, prefix, count],
    );

  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    tenant = await createTenant({}, iso.db);
    // As if the jobs had last run four days ago: the quotes below are all after every mark.
    await sql(`UPDATE rollup_marks SET through = now() - interval '4 days'`);
  });
  afterAll(async () => {
    await iso.close();
  });

  it('leaves every rollup as the minute jobs count the same rows, whatever double counts it held', async () => {
    // Three days ago, yesterday and a minute ago; some quotes share a millisecond.
    const DAY = 86_400_000;
    await plantQuotes(90, 3 * DAY, 'three-days-', { priceOnIntent: false });
    await plantQuotes(90, DAY, 'yesterday-');
    await plantQuotes(90, 60_000, 'minute-');
    await plantAccountQuotes(40, 2 * DAY, 'account-old-');
    await plantAccountQuotes(40, 60_000, 'account-new-');
    const counted = await rollUpEverything();
    // Not vacuous: every rollup counted rows (quotes with a business; both funnel tables' quotes;
    // priced experiment quotes; acceptances; priced account quotes in an arm; their commitments).
    expect(counted[0]).toBe(3 * (90 - 8));
    expect(counted[1]).toBe(3 * (90 - 8));
    expect(counted.slice(2).every((n) => n > 0), `counted ${counted}`).toBe(true);
    const asCounted = await snapshot();
    for (const table of ROLLUPS) expect(asCounted[table].length, table).toBeGreaterThan(1);

    // What a mark rounded down left behind: some rows counted again, one row of its own.
    await sql(`UPDATE quote_outcomes_hourly SET quotes = quotes + 1 WHERE outcome = 'succeeded'`);
    await sql(`UPDATE quote_funnel_daily SET quotes = quotes * 2 WHERE offering_id = ''`);
    await sql(`UPDATE quote_prices_daily SET quotes = quotes + 1 WHERE total_minor = 1000`);
    await sql(`UPDATE quote_missing_inputs_daily SET quotes = quotes + 3 WHERE input = 'size'`);
    await sql(
      `UPDATE experiment_arm_daily SET quotes = quotes + 1, quoted_price_sum = quoted_price_sum + 1250, acceptances = acceptances + 1,
         accepted_revenue_sum = accepted_revenue_sum + 1000, accepted_revenue_sum_of_squares = accepted_revenue_sum_of_squares + 1000000,
         commitments = commitments + 1, committed_revenue_sum = committed_revenue_sum + 2000,
         committed_revenue_sum_of_squares = committed_revenue_sum_of_squares + 4000000 WHERE arm = 'control'`,
    );
    await sql(
      `INSERT INTO quote_outcomes_hourly (business_id, environment_id, hour, outcome, quotes)
       VALUES ($1, $2, date_trunc('hour', now() - interval '10 days', 'UTC'), 'failed', 7)`,
      [tenant.businessId, tenant.environments.live],
    );
    expect(await snapshot()).not.toEqual(asCounted);

    // A quote and an account quote made after the marks: the jobs' to count, not the recount's.
    await plantQuotes(3, 0, 'after-');
    await plantAccountQuotes(2, 0, 'account-after-');

    await recount();
    expect(await snapshot()).toEqual(asCounted);

    // The jobs go on from their marks: they count what came after, once, and a recount then
    // changes nothing.
    const after = await rollUpEverything();
    expect(after[0]).toBe(3);
    expect(after[1]).toBe(3);
    expect(after.slice(2).every((n) => n > 0), `counted ${after}`).toBe(true);
    const asCountedAfter = await snapshot();
    expect(asCountedAfter).not.toEqual(asCounted);
    await recount();
    expect(await snapshot()).toEqual(asCountedAfter);
    expect(await rollUpEverything()).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
