// Group `scale`, experiment results (issue 41 §3): one running experiment (a control and two
// variants, 40/30/30) whose hosted-page quotes number 10M over 75 days, about 4% of them accepted
// (quote_acceptances rows, a quarter of those leads won), on a database of its own. The quotes are
// copies of real ones: the product's quote verb (createPublicQuote) prices each answer set in each
// arm once, and the fill copies those intents and receipts (computation, signature, the receipt's
// `experiment`) with new ids, keys, request ids and times, day by day in set-based statements.
// The minute job's own functions then build experiment_arm_daily (rollUpExperimentQuotes and
// rollUpExperimentAcceptances, from marks set back to the start: one catch-up pass), a tail of
// quotes is written after the mark (as between two minute passes), and the results read
// (requireBook + experimentResults, as the route calls them) is timed over one connection.
import os from 'node:os';
import type { SessionPrincipal } from '../../lib/auth/principal';
import type { VerbContext } from '../../lib/context/verb-context';
import { requireBook } from '../../lib/books/book-authorization';
import { listLeads } from '../../lib/leads/list-leads';
import { requireBusinessReader } from '../../lib/members/business-authorization';
import { businessOverview } from '../../lib/overview/business-overview';
import { personInbox } from '../../lib/overview/person-inbox';
import { listBusinessQuotes } from '../../lib/quotes/list-business-quotes';
import { QUOTE_ROLLUP_MARK, rollUpQuoteOutcomes } from '../../lib/quotes/store/rollup';
import { consentSentence } from '../../lib/businesses/acceptance-consent';
import { findBranding } from '../../lib/businesses/store';
import { createBookVersion } from '../../lib/books/create-book-version';
import { createExperiment } from '../../lib/experiments/create-experiment';
import { experimentResults } from '../../lib/experiments/experiment-results';
import { createExperimentRequestSchema, type ExperimentResultsView } from '../../lib/experiments/schemas';
import { startExperiment } from '../../lib/experiments/start-stop-experiment';
import { createPublicQuote } from '../../lib/quotes/create-public-quote';
import { EXPERIMENT_ACCEPTANCES_MARK, EXPERIMENT_QUOTES_MARK, rollUpExperimentAcceptances, rollUpExperimentQuotes } from '../../lib/experiments/store/arm-rollup';
import { createPerson, createTenant, testContext } from '../../lib/testing/factories';
import { log } from '../context';
import { repricedDemoBook } from '../provision';
import { summarize, type LatencySummary } from '../stats';
import { oneConnection, postgresTimeSinceReset, type PostgresTime, type ScaleContext } from './scale';

const DAY_MS = 86_400_000;
/** Days the experiment has run: its quotes are spread evenly over them (today left for the tail). */
export const EXPERIMENT_DAYS = 75;
/** Arms in assignment order, their weights (percent) and their acceptances per thousand quotes. */
const ARMS = [
  { name: 'control', weight: 40, percent: 0, acceptedPerMille: 40 },
  { name: 'variant_1', weight: 30, percent: 5, acceptedPerMille: 36 },
  { name: 'variant_2', weight: 30, percent: -5, acceptedPerMille: 44 },
] as const;
/** Lead statuses of the acceptances, out of 20: 10 new, 3 contacted, 5 won, 2 lost. */
const LEAD_STATUS_SQL = `CASE WHEN h < 10 THEN 'new' WHEN h < 13 THEN 'contacted' WHEN h < 18 THEN 'won' ELSE 'lost' END`;
/** The results read's measured runs stop at this many seconds (after at least 3): a slow plan is reported, not waited for. */
const READ_BUDGET_S = 120;
const SLOW_READ_MS = 10_000;
/** Window cleaning, each answer set priced in each arm once by the product's verb. */
const ANSWER_SETS = ['small', 'medium', 'large'].flatMap((home_size) =>
  ['1', '2'].flatMap((storeys) => ['easy', 'difficult'].map((access) => ({ offeringId: 'window_cleaning', factors: { home_size, storeys, frequency: 'monthly', access } }))),
);

export type ExperimentScaleSettings = { quotes: number; tail: number; readRuns: number };

export type ExperimentScaleResult = {
  quotes: number;
  days: number;
  tail: number;
  acceptances: number;
  wonLeads: number;
  fillSeconds: number;
  vacuumSeconds: number;
  /** The minute job's two functions catching up over every quote and acceptance once. */
  rollup: { quotesSeconds: number; quotesCounted: number; acceptancesSeconds: number; acceptancesCounted: number; rows: number };
  disk: { intentsBytes: number; receiptsBytes: number; acceptancesBytes: number; databaseBytes: number };
  /**
   * Issue 43: the reads the portal makes on loading the business's Overview, Quotes and Leads
   * pages (GET …/overview, …/quotes?limit=50, …/leads?limit=50, and the inbox every page asks for), each as the route calls it
   * (requireBusinessReader, then the verb), one connection, after 5 warm-up runs.
   */
  portalReads: { name: string; ms: LatencySummary; statements: { text: string; meanMs: number }[] }[];
  /** The quote-outcome rollup's catch-up over every quote (what the Overview's quotes per day read). */
  quoteRollupSeconds: number;
  /** requireBook + experimentResults per run, one connection, after 5 warm-up runs. */
  read: { ms: LatencySummary; statementsPerRun: number; planMsPerRun: number; execMsPerRun: number };
  /** The answer's totals against counts of the rows themselves. */
  check: { answerQuotes: number; countedQuotes: number; answerAcceptances: number; countedAcceptances: number; answerWon: number; countedWon: number };
  arms: ExperimentResultsView['arms'];
  /** EXPLAIN (ANALYZE, BUFFERS) of the arm totals' statement, once after the timed runs. */
  plan: string[];
  loadStart: string;
  loadEnd: string;
};

/** A UUIDv7-shaped request id of the row's millisecond (as newRequestId makes them), from a seed. */
const v7 = (at: string, seed: string) => `(SELECT substr(t, 1, 8) || '-' || substr(t, 9, 4) || '-7' || substr(r, 1, 3) || '-' || substr('89ab', 1 + (get_byte(decode(r, 'hex'), 15) % 4), 1) || substr(r, 4, 3) || '-' || substr(r, 7, 12)
    FROM (SELECT lpad(to_hex((extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') AS t, md5(${seed}) AS r) v)`;

/**
 * `$6` quotes from `$4` spread over `$5` ms, numbered from `$7`: each a copy of the template
 * (`$1` intent ids, `$2` their arm, `$3` their answer set) of its arm (by weight, `$8`/`$9` the
 * first two arms' percent) and answer set, with its intent and receipt; `$10` per mille of each
 * arm accepted, at most an hour later and never after `$11`, by `$12` (consent sentence) with the
 * lead moved on by `$13`.
 */
const FILL_QUOTES = `WITH tmpl AS MATERIALIZED (
    SELECT t.arm_n, t.answer_n, qi.workspace_id, qi.project_id, qi.environment_id, qi.book_id, qi.book_version_id, qi.business_id,
      qi.status AS intent_status, qi.source, qi.idempotency_scope, qi.request_fingerprint, qi.inputs, qi.expires_at - qi.created_at AS validity,
      qi.experiment_id, qi.experiment_arm, qi.total_minor AS intent_total_minor, qi.currency AS intent_currency,
      r.outcome, r.source AS receipt_source, r.book_version_id AS receipt_version, r.computation, r.missing_inputs, r.failure, r.latency_ms,
      r.signature_kid, r.signature, r.format_version, r.experiment, (r.computation->>'totalMinor')::bigint AS total_minor, r.computation->>'currency' AS currency
    FROM unnest($1::uuid[], $2::int[], $3::int[]) AS t(intent_id, arm_n, answer_n)
    JOIN quote_intents qi ON qi.id = t.intent_id JOIN quote_receipts r ON r.quote_intent_id = qi.id
  ), slots AS (
    SELECT g, k, created_at, CASE WHEN k % 100 < $8::int THEN 0 WHEN k % 100 < $8::int + $9::int THEN 1 ELSE 2 END AS arm_n,
      ((k / 100) % (SELECT max(answer_n) + 1 FROM tmpl))::int AS answer_n
    FROM (SELECT $7::bigint + s AS g, (($7::bigint + s) * 2654435761) % 4294967291 AS k, $4::timestamptz + (s * $5::bigint / $6::int) * interval '1 millisecond' AS created_at
          FROM generate_series(0, $6::int - 1) AS s) n
  ), quotes AS MATERIALIZED (
    SELECT gen_random_uuid() AS intent_id, gen_random_uuid() AS receipt_id, g, k, created_at, arm_n, answer_n,
      ${v7('created_at', "g::text || 'quote'")} AS request_id, 'auto_' || gen_random_uuid()::text AS idempotency_key
    FROM slots
  ), intents AS (
    INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id, business_id, status, source, idempotency_scope,
                               idempotency_key, request_fingerprint, request_correlation_id, inputs, expires_at, created_at, updated_at,
                               experiment_id, experiment_arm, total_minor, currency)
    SELECT q.intent_id, t.workspace_id, t.project_id, t.environment_id, t.book_id, t.book_version_id, t.business_id, t.intent_status, t.source, t.idempotency_scope,
      q.idempotency_key, t.request_fingerprint, q.request_id, t.inputs, q.created_at + t.validity, q.created_at, q.created_at,
      t.experiment_id, t.experiment_arm, t.intent_total_minor, t.intent_currency
    FROM quotes q JOIN tmpl t USING (arm_n, answer_n) ORDER BY q.g
  ), receipts AS (
    INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, book_version_id, computation, missing_inputs, failure, idempotency_key,
                                request_correlation_id, latency_ms, created_at, signature_kid, signature, format_version, experiment)
    SELECT q.receipt_id, q.intent_id, t.outcome, t.receipt_source, t.receipt_version, t.computation, t.missing_inputs, t.failure, q.idempotency_key,
      q.request_id, t.latency_ms, q.created_at, t.signature_kid, t.signature, t.format_version, t.experiment
    FROM quotes q JOIN tmpl t USING (arm_n, answer_n) ORDER BY q.g
  ), accepted AS (
    SELECT q.*, least(q.created_at + ((q.k / 1000) % 3600) * interval '1 second', $11::timestamptz) AS accepted_at, ((q.k / 7000) % 20)::int AS h
    FROM quotes q WHERE (q.k / 7) % 1000 < ($10::int[])[q.arm_n + 1]
  ), acceptances AS (
    INSERT INTO quote_acceptances (id, quote_intent_id, receipt_id, receipt_signature, workspace_id, project_id, environment_id, business_id, total_minor,
                                   currency, contact_name, contact_email, consent_text, status, status_changed_at, status_changed_by, request_correlation_id, created_at,
                                   experiment_id, experiment_arm)
    SELECT gen_random_uuid(), a.intent_id, a.receipt_id, t.signature, t.workspace_id, t.project_id, t.environment_id, t.business_id, t.total_minor,
      t.currency, 'Customer ' || a.g, 'customer-' || a.g || '@example.test', $12::text, ${LEAD_STATUS_SQL},
      CASE WHEN a.h >= 10 THEN least(a.accepted_at + interval '1 day', $11::timestamptz) END, CASE WHEN a.h >= 10 THEN $13::uuid END,
      ${v7('a.accepted_at', "a.g::text || 'accept'")}, a.accepted_at,
      (t.experiment->>'experimentId')::uuid, t.experiment->>'arm'
    FROM accepted a JOIN tmpl t USING (arm_n, answer_n) ORDER BY a.accepted_at
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM quotes)::int AS quotes, (SELECT count(*) FROM acceptances)::int AS acceptances`;

type Templates = { intentIds: string[]; arms: number[]; answers: number[] };

type Fill = { templates: Templates; consent: string; changedBy: string };

function fillParams(fill: Fill, from: Date, spanMs: number, count: number, firstNumber: number, acceptedBy: Date): unknown[] {
  return [
    fill.templates.intentIds,
    fill.templates.arms,
    fill.templates.answers,
    from.toISOString(),
    spanMs,
    count,
    firstNumber,
    ARMS[0].weight,
    ARMS[1].weight,
    ARMS.map((a) => a.acceptedPerMille),
    acceptedBy.toISOString(),
    fill.consent,
    fill.changedBy,
  ];
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export async function runExperimentScale(ctx: ScaleContext, settings: ExperimentScaleSettings): Promise<ExperimentScaleResult> {
  const loadStart = load();
  const db = ctx.db.prisma;
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const startedAt = new Date(today.getTime() - EXPERIMENT_DAYS * DAY_MS);

  log('scale, experiment: a tenant, two variant versions, the experiment created and started (domain code)');
  const tenant = await createTenant({}, db);
  const person = await createPerson(tenant, { permissions: 'all' }, db);
  const versionIds = [];
  for (const arm of ARMS.slice(1)) versionIds.push((await createBookVersion(testContext(db), { bookId: tenant.bookId, artifact: repricedDemoBook(arm.percent) })).id);
  const asPerson = (now: Date) => testContext(db, { now, principal: person.principal });
  const book = await requireBook(asPerson(startedAt), { bookId: tenant.bookId });
  const created = await createExperiment(asPerson(startedAt), {
    book,
    request: createExperimentRequestSchema.parse({
      environment: 'live',
      name: 'Bench: prices ±5%',
      controlWeight: ARMS[0].weight,
      variants: versionIds.map((versionId, i) => ({ versionId, weight: ARMS[i + 1].weight })),
    }),
  });
  // Started EXPERIMENT_DAYS ago (its start is when results count from).
  await startExperiment(asPerson(startedAt), { book, experimentId: created.id });

  // Templates: each answer set priced in each arm by the product's verb (new visitors until every arm is seen).
  log('scale, experiment: templates (createPublicQuote, each answer set in each arm)');
  const templates: Templates = { intentIds: [], arms: [], answers: [] };
  for (const [answer, inputs] of ANSWER_SETS.entries()) {
    const seen = new Set<number>();
    for (let visitor = 0; seen.size < ARMS.length; visitor++) {
      if (visitor > 200) throw new Error(`answer set ${answer}: not every arm after 200 visitors`);
      const { result } = await createPublicQuote({ ...testContext(db), startedAt: performance.now() }, { businessId: tenant.businessId, ...inputs }, `bench-visitor-${answer}-${visitor}-0000000000000`);
      const receipt = result.quoteReceipt;
      if (receipt.outcome !== 'succeeded' || !receipt.experiment) throw new Error(`a template quote was not priced in the experiment: ${JSON.stringify(receipt).slice(0, 300)}`);
      const arm = ARMS.findIndex((a) => a.name === receipt.experiment!.arm);
      if (seen.has(arm)) continue;
      seen.add(arm);
      templates.intentIds.push(result.quoteIntent.id);
      templates.arms.push(arm);
      templates.answers.push(answer);
    }
  }
  const fill: Fill = { templates, consent: consentSentence(await findBranding(db, tenant.businessId)), changedBy: person.userId };

  // The fill: a day per statement, two connections.
  const perDay = Math.ceil(settings.quotes / EXPERIMENT_DAYS);
  log(`scale, experiment: filling ${(perDay * EXPERIMENT_DAYS).toLocaleString('en-US')} quotes (${perDay.toLocaleString('en-US')} a day over ${EXPERIMENT_DAYS} days); load ${loadStart}`);
  await ctx.admin.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
  await ctx.admin.query('SELECT pg_reload_conf()');
  const acceptedBy = new Date(Date.now() - 6 * 60_000); // before the rollup's mark: the bulk is counted by it
  const fillStarted = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    [0, 1].map(async () => {
      const client = await ctx.admin.connect();
      try {
        await client.query('SET synchronous_commit = off');
        while (next < EXPERIMENT_DAYS) {
          const day = next++;
          await client.query(FILL_QUOTES, fillParams(fill, new Date(startedAt.getTime() + day * DAY_MS), DAY_MS, perDay, day * perDay, acceptedBy));
          if (++done % 15 === 0) log(`scale, experiment: ${done}/${EXPERIMENT_DAYS} days filled, ${((performance.now() - fillStarted) / 1000).toFixed(0)} s`);
        }
      } finally {
        await client.query('RESET synchronous_commit');
        client.release();
      }
    }),
  );
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  log(`scale, experiment: filled in ${fillSeconds.toFixed(0)} s; VACUUM (ANALYZE)`);
  const vacuumStarted = performance.now();
  await ctx.admin.query('VACUUM (ANALYZE) quote_intents, quote_receipts, quote_acceptances');
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  await ctx.admin.query('ALTER SYSTEM RESET max_wal_size');
  await ctx.admin.query('SELECT pg_reload_conf()');
  await ctx.admin.query('CHECKPOINT');

  // The rollup, as the minute job builds it: its marks as they stood at the start (the job has
  // counted from there on), then one catch-up pass of each function.
  await ctx.admin.query(`UPDATE rollup_marks SET through = $1 WHERE name IN ('${EXPERIMENT_QUOTES_MARK}', '${EXPERIMENT_ACCEPTANCES_MARK}', '${QUOTE_ROLLUP_MARK}')`, [startedAt]);
  const job = oneConnection(ctx.url);
  let rollup: ExperimentScaleResult['rollup'];
  let quoteRollupSeconds = 0;
  try {
    let t = performance.now();
    const quotesCounted = await rollUpExperimentQuotes(job.prisma);
    const quotesSeconds = (performance.now() - t) / 1000;
    log(`scale, experiment: rollUpExperimentQuotes counted ${quotesCounted.toLocaleString('en-US')} quotes in ${quotesSeconds.toFixed(1)} s`);
    t = performance.now();
    const acceptancesCounted = await rollUpExperimentAcceptances(job.prisma);
    const acceptancesSeconds = (performance.now() - t) / 1000;
    log(`scale, experiment: rollUpExperimentAcceptances counted ${acceptancesCounted.toLocaleString('en-US')} acceptances in ${acceptancesSeconds.toFixed(1)} s`);
    t = performance.now();
    await rollUpQuoteOutcomes(job.prisma);
    quoteRollupSeconds = (performance.now() - t) / 1000;
    log(`scale, experiment: rollUpQuoteOutcomes caught up in ${quoteRollupSeconds.toFixed(1)} s`);
    const rows = Number((await ctx.admin.query<{ n: string }>('SELECT count(*)::text AS n FROM experiment_arm_daily WHERE experiment_id = $1::uuid', [created.id])).rows[0].n);
    rollup = { quotesSeconds, quotesCounted, acceptancesSeconds, acceptancesCounted, rows };
  } finally {
    await job.close();
  }
  await ctx.admin.query('ANALYZE experiment_arm_daily, quote_outcomes_hourly');

  // The tail: quotes of the last few minutes, after the mark (five minutes before the rollup ran), not yet counted.
  const tailFrom = new Date(Date.now() - 4 * 60_000);
  await ctx.admin.query(FILL_QUOTES, fillParams(fill, tailFrom, 4 * 60_000, settings.tail, EXPERIMENT_DAYS * perDay, new Date()));
  await ctx.admin.query('CHECKPOINT');

  const counted = (
    await ctx.admin.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
                WHERE qi.book_id = $1::uuid AND r.outcome = 'succeeded' AND r.experiment->>'experimentId' = $2::text)::text AS quotes,
              (SELECT count(*) FROM quote_acceptances WHERE environment_id = $3::uuid)::text AS acceptances,
              (SELECT count(*) FROM quote_acceptances WHERE environment_id = $3::uuid AND status = 'won')::text AS won,
              pg_total_relation_size('quote_intents')::text AS intents_bytes, pg_total_relation_size('quote_receipts')::text AS receipts_bytes,
              pg_total_relation_size('quote_acceptances')::text AS acceptances_bytes, pg_database_size(current_database())::text AS database_bytes`,
      [tenant.bookId, created.id, tenant.environments.live],
    )
  ).rows[0];

  // The read: as the route calls it (the book's access check, then the verb), one connection,
  // whose statement that reads experiment_arm_daily is kept (text and values) to be explained after.
  log(`scale, experiment: timing the results read (${settings.readRuns} runs, at most ${READ_BUDGET_S} s)`);
  let armTotals: { text: string; values: unknown[] } | null = null;
  const reader = oneConnection(ctx.url, (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [first, second] = args as [string | { text?: string; values?: unknown[] }, unknown];
      const text = typeof first === 'string' ? first : first?.text;
      if (!armTotals && text?.includes('experiment_arm_daily')) armTotals = { text, values: (Array.isArray(second) ? second : typeof first === 'object' ? first.values : undefined) ?? [] };
      return query(...args);
    };
  });
  let answer: ExperimentResultsView | undefined;
  let slow = false;
  const ms: number[] = [];
  let stats: PostgresTime;
  try {
    const readOnce = async () => {
      const ctxNow = testContext(reader.prisma, { now: new Date(), principal: person.principal });
      return experimentResults(ctxNow, await requireBook(ctxNow, { bookId: tenant.bookId }), created.id);
    };
    // Warm-up: 5 runs, or fewer when they are slow; then the measured runs within the budget
    // (at least 3, or 1 when a run takes more than SLOW_READ_MS).
    const warmUntil = performance.now() + 30_000;
    let first = performance.now();
    for (let i = 0; i < 5 && (i === 0 || performance.now() < warmUntil); i++) answer = await readOnce();
    first = performance.now() - first;
    slow = first > SLOW_READ_MS;
    await ctx.admin.query('SELECT pg_stat_statements_reset()');
    const until = performance.now() + READ_BUDGET_S * 1000;
    for (let i = 0; i < settings.readRuns && (i < (slow ? 1 : 3) || performance.now() < until); i++) {
      const t = performance.now();
      answer = await readOnce();
      ms.push(performance.now() - t);
    }
    stats = await postgresTimeSinceReset(ctx.admin);
  } finally {
    await reader.close();
  }
  const runs = ms.length;
  const read = { ms: summarize(ms), statementsPerRun: stats.calls / runs, planMsPerRun: stats.planMs / runs, execMsPerRun: stats.execMs / runs };
  log(`scale, experiment: results read (${runs} runs) p50 ${read.ms.p50.toFixed(2)} ms, p95 ${read.ms.p95.toFixed(2)} ms, max ${read.ms.max.toFixed(2)} ms; PostgreSQL plan ${read.planMsPerRun.toFixed(2)} + execution ${read.execMsPerRun.toFixed(2)} ms per run`);

  // Where the read's time goes: its arm-totals statement, as it was sent, explained.
  const captured = armTotals as { text: string; values: unknown[] } | null;
  // A read slower than SLOW_READ_MS is explained without running it again (estimates only).
  const explain = slow ? 'EXPLAIN' : 'EXPLAIN (ANALYZE, BUFFERS)';
  const plan = captured ? [`${explain}:`, ...(await ctx.admin.query<{ 'QUERY PLAN': string }>(`${explain} ${captured.text}`, captured.values)).rows.map((r) => r['QUERY PLAN'])] : [];
  for (const line of plan) log(`  ${line}`);

  const portalReads = await timePortalReads(ctx, { businessId: tenant.businessId, principal: person.principal });

  const arms = answer!.arms;
  return {
    portalReads,
    quoteRollupSeconds,
    quotes: perDay * EXPERIMENT_DAYS,
    days: EXPERIMENT_DAYS,
    tail: settings.tail,
    acceptances: Number(counted.acceptances),
    wonLeads: Number(counted.won),
    fillSeconds,
    vacuumSeconds,
    rollup,
    disk: { intentsBytes: Number(counted.intents_bytes), receiptsBytes: Number(counted.receipts_bytes), acceptancesBytes: Number(counted.acceptances_bytes), databaseBytes: Number(counted.database_bytes) },
    read,
    check: {
      answerQuotes: arms.reduce((a, arm) => a + arm.quotes, 0),
      countedQuotes: Number(counted.quotes),
      answerAcceptances: arms.reduce((a, arm) => a + arm.acceptances, 0),
      countedAcceptances: Number(counted.acceptances),
      answerWon: arms.reduce((a, arm) => a + arm.wonLeads, 0),
      countedWon: Number(counted.won),
    },
    arms,
    plan,
    loadStart,
    loadEnd: load(),
  };
}

/** Measured runs of each portal read (after 5 warm-up runs); fewer when a read is slow (a 20 s budget each). */
const PORTAL_READ_RUNS = 100;

/** Issue 43: the reads the portal makes on loading Overview, Quotes and Leads, as their routes call them, one connection. */
async function timePortalReads(ctx: ScaleContext, who: { businessId: string; principal: SessionPrincipal }) {
  const reader = oneConnection(ctx.url);
  try {
    // Each as its route calls it: the business's access check, then the verb.
    const reads: [string, (member: VerbContext<SessionPrincipal>) => Promise<unknown>][] = [
      ['GET /v1/businesses/{id}/overview', async (member) => businessOverview(member, { access: await requireBusinessReader(member, who) })],
      [
        'GET /v1/businesses/{id}/quotes?limit=50',
        async (member) => {
          await requireBusinessReader(member, who);
          return listBusinessQuotes(member, { businessId: who.businessId, query: { limit: 50, environment: 'live' } });
        },
      ],
      ['GET /v1/businesses/{id}/leads?limit=50', async (member) => listLeads(member, { access: await requireBusinessReader(member, who), query: { limit: 50 } })],
      // Every portal page asks for the person's inbox too.
      ['GET /v1/me/inbox', (member) => personInbox(member)],
    ];
    const readOnce = (read: (typeof reads)[number][1]) => read(testContext(reader.prisma, { now: new Date(), principal: who.principal }));
    const out: ExperimentScaleResult['portalReads'] = [];
    for (const [name, read] of reads) {
      for (let i = 0; i < 5; i++) await readOnce(read);
      await ctx.admin.query('SELECT pg_stat_statements_reset()');
      const ms: number[] = [];
      const until = performance.now() + 20_000;
      for (let i = 0; i < PORTAL_READ_RUNS && (i < 3 || performance.now() < until); i++) {
        const t = performance.now();
        await readOnce(read);
        ms.push(performance.now() - t);
      }
      const summary = summarize(ms);
      // Where a slow read's time goes: its statements, slowest first (PostgreSQL's own time).
      const { slowest } = await postgresTimeSinceReset(ctx.admin);
      out.push({ name, ms: summary, statements: slowest.slice(0, 3) });
      log(`scale, experiment: ${name} (${ms.length} runs) p50 ${summary.p50.toFixed(2)} ms, p95 ${summary.p95.toFixed(2)} ms`);
      for (const { text, meanMs } of slowest.slice(0, 3)) log(`  ${meanMs.toFixed(2)} ms: ${text}`);
    }
    return out;
  } finally {
    await reader.close();
  }
}
