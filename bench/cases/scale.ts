// Group `scale` (only with `--only scale`: it writes tens of GB and takes most of an hour): the
// request log at 10M and then 50M rows over 90 days, on a database of its own. At each size:
// the searches and lookups a member makes, the Overview's API-call count, the minute job,
// dropping an expired day, the writer's throughput and the disk per million rows. Every read is
// the product's own verb or store function (searchRequestLogs, getRequestLog, countApiCalls,
// insertRequestLogs, dropDayPartition, maintainRequestLogPartitions), timed in this process over
// one connection. Also: the disk a quote takes, from quotes made by the product's quote verb.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { demoExample } from '../../lib/books/demo-book';
import { createBusiness } from '../../lib/businesses/create-business';
import { systemContext, type VerbContext } from '../../lib/context/verb-context';
import type { Db } from '../../lib/db/client';
import { PrismaClient } from '../../lib/db/generated/client';
import { registerPool } from '../../lib/db/sql';
import { newRequestId } from '../../lib/requestlog/request-id';
import { countApiCalls } from '../../lib/overview/store';
import { createPublicQuote } from '../../lib/quotes/create-public-quote';
import { maintainRequestLogPartitions } from '../../lib/requestlog/partitions';
import { requestLogQuerySchema } from '../../lib/requestlog/schemas';
import { getRequestLog, searchRequestLogs } from '../../lib/requestlog/search-request-logs';
import { shownSinceOf } from '../../lib/requestlog/retention';
import { createDayPartition, dropDayPartition, insertRequestLogs, NONE_ID, PARTITIONED, PARTITION_SCHEMA, partitionName, type RequestLogEntry } from '../../lib/requestlog/store';
import { createPerson, createTenant, testContext, type Person, type Tenant } from '../../lib/testing/factories';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { log } from '../context';
import { startSampler } from '../procfs';
import { summarize, type LatencySummary } from '../stats';

const DAY_MS = 86_400_000;
/** Days of traffic filled: the default REQUEST_LOG_RETENTION_DAYS. */
export const SCALE_DAYS = 90;
/** Bodies are kept 30 days (lib/requestlog/partitions.ts): only those days get body rows. */
const BODY_DAYS = 30;
/** The main workspace's businesses (the Overview counts one of them). */
const MAIN_BUSINESSES = 20;
/** Workspaces besides the main one; together they write half of the traffic. */
const OTHER_TENANTS = 9;
/** Expired days filled and dropped per size (each drop timed). */
const EXPIRED_DAYS = 3;
const WRITER_SECONDS = 10;
const WRITER_BATCH = 50;
const QUOTES_FOR_STORAGE = 20_000;

export type ScaleSettings = { sizes: number[]; readRuns: number };

/** One read: wall time in this process (Prisma included), and PostgreSQL's own planning and execution per run (pg_stat_statements). */
export type ScaleRead = { name: string; ms: LatencySummary; rowsReturned: number; statementsPerRun: number; planMsPerRun: number; execMsPerRun: number };

export type ScaleSize = {
  target: number;
  /** Rows in request_logs when the reads were measured (counted). */
  rows: number;
  bodies: number;
  rowsPerDay: number;
  loadStart: string;
  loadEnd: string;
  fillSeconds: number;
  vacuumSeconds: number;
  analyzeSeconds: number;
  /** The hourly rollup's total equals the rows (the Overview counts from it). */
  rollup: { rows: number; requests: number };
  disk: { rowsBytes: number; bodiesBytes: number; rollupBytes: number; databaseBytes: number };
  reads: ScaleRead[];
  /** The minute job's request-log part with nothing to make or drop (ms per run). */
  minuteJobMs: LatencySummary;
  /** dropDayPartition of an expired day holding `rowsPerDay` rows, once per day. */
  dropMs: number[];
  writers: { connections: number; rows: number; seconds: number; rowsPerSecond: number; postgresCpuSeconds: number; rowsPerPostgresCpuSecond: number; batchMs: LatencySummary }[];
};

export type QuoteStorage = { quotes: number; seconds: number; endpoints: number; tables: { table: string; rows: number; bytes: number }[] };

export type ScaleResult = { days: number; quotes: QuoteStorage; sizes: ScaleSize[] };

export type ScaleContext = { admin: pg.Pool; db: { prisma: Db }; url: string; postmasterPid: () => number };

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** A Prisma client over exactly one connection, built as lib/db/client.ts builds the service's (statements prepared). */
export function oneConnection(url: string, onConnect?: (client: pg.PoolClient) => void): { prisma: Db; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', (error) => log(`scale: connection closed: ${error.message}`));
  if (onConnect) pool.on('connect', onConnect);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  registerPool(prisma, pool);
  return {
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/** What PostgreSQL spent on this database's statements since the last `pg_stat_statements_reset()`, and its slowest statements (mean planning + execution). */
export type PostgresTime = { calls: number; planMs: number; execMs: number; slowest: { text: string; meanMs: number }[] };

export async function postgresTimeSinceReset(admin: pg.Pool): Promise<PostgresTime> {
  const { rows } = await admin.query<{ query: string; calls: string; plan: number; exec: number }>(
    `SELECT s.query, s.calls::text AS calls, s.total_plan_time::float8 AS plan, s.total_exec_time::float8 AS exec
     FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database() AND s.query NOT ILIKE '%pg_stat_statements%'`,
  );
  const slowest = rows
    .map((r) => ({ text: r.query.replace(/\s+/g, ' ').slice(0, 90), meanMs: (r.plan + r.exec) / Number(r.calls) }))
    .sort((a, b) => b.meanMs - a.meanMs);
  return {
    calls: rows.reduce((n, r) => n + Number(r.calls), 0),
    planMs: rows.reduce((n, r) => n + r.plan, 0),
    execMs: rows.reduce((n, r) => n + r.exec, 0),
    slowest,
  };
}

type Tenancy = { main: Tenant; person: Person; mainBusinesses: string[]; others: Tenant[]; otherPeople: Person[] };

async function provisionScale(db: Db): Promise<Tenancy> {
  const main = await createTenant({}, db);
  const person = await createPerson(main, { permissions: 'all' }, db);
  const mainBusinesses = [main.businessId];
  for (let i = 1; i < MAIN_BUSINESSES; i++) {
    const business = await createBusiness(testContext(db), { workspaceId: main.workspaceId, name: `Scale business ${i}`, connection: { projectId: main.projectId, kind: 'direct' } });
    mainBusinesses.push(business.id);
  }
  const others: Tenant[] = [];
  const otherPeople: Person[] = [];
  for (let i = 0; i < OTHER_TENANTS; i++) {
    const tenant = await createTenant({}, db);
    others.push(tenant);
    otherPeople.push(await createPerson(tenant, { permissions: 'all' }, db));
  }
  return { main, person, mainBusinesses, others, otherPeople };
}

// ---------------------------------------------------------------------------------------------
// Quotes: what one takes on disk

/** Every user table's size (table, TOAST and indexes) and estimated rows. */
async function tableSizes(admin: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await admin.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname = 'public'`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}

/**
 * Quotes made by the product's verb (createPublicQuote, as the receipts group does; 8 at once),
 * with one webhook endpoint on the business's Live environment so that each quote's event has
 * its delivery; the growth of every table, per quote. Deliveries are never sent here (no attempts).
 */
async function measureQuoteStorage(ctx: ScaleContext, tenancy: Tenancy): Promise<QuoteStorage> {
  const { db, admin } = ctx;
  const asPerson = testContext(db.prisma, { principal: tenancy.person.principal });
  await createEndpoint(asPerson, { projectId: tenancy.main.projectId, environment: 'live', url: 'https://hooks.example.test/quotes' });
  // The first quote makes the receipt signing key; measured from after it.
  await createPublicQuote({ ...testContext(db.prisma), startedAt: performance.now() }, { businessId: tenancy.main.businessId, ...demoExample });
  await admin.query('VACUUM ANALYZE');
  const before = await tableSizes(admin);
  const countsBefore = await quoteTableCounts(admin);
  log(`scale: ${QUOTES_FOR_STORAGE.toLocaleString('en-US')} quotes through createPublicQuote`);
  const started = performance.now();
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < QUOTES_FOR_STORAGE) {
        made++;
        await createPublicQuote({ ...testContext(db.prisma), startedAt: performance.now() }, { businessId: tenancy.main.businessId, ...demoExample, idempotencyKey: randomUUID() });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await admin.query('VACUUM ANALYZE');
  const after = await tableSizes(admin);
  const countsAfter = await quoteTableCounts(admin);
  const tables = [...after]
    .map(([table, bytes]) => ({ table, bytes: bytes - (before.get(table) ?? 0), rows: (countsAfter[table] ?? 0) - (countsBefore[table] ?? 0) }))
    .filter((t) => t.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return { quotes: QUOTES_FOR_STORAGE, seconds, endpoints: 1, tables };
}

async function quoteTableCounts(admin: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await admin.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM quote_intents)::text AS quote_intents, (SELECT count(*) FROM quote_receipts)::text AS quote_receipts,
       (SELECT count(*) FROM outbox_events)::text AS outbox_events, (SELECT count(*) FROM webhook_deliveries)::text AS webhook_deliveries`,
  );
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

// ---------------------------------------------------------------------------------------------
// Filling

/**
 * The rows of one UTC day: `perDay` slots evenly spread over the day; the size being filled
 * writes the slots `slot % stride` selects (`phase` 'first': every stride-th slot; 'rest': the
 * others), so a larger size is the smaller one plus rows in between. Request ids are UUIDv7 of
 * the row's millisecond (as newRequestId makes them); half the traffic is the main workspace's
 * (20 businesses), the rest nine others'. Paths, callers and statuses as the API sees them:
 * 60% 201, 30% 200, then 400/404/409/422/429 and 0.5% 500.
 */
const DAY_ROWS = `SELECT
    substr(x.t, 1, 8) || '-' || substr(x.t, 9, 4) || '-7' || substr(x.r, 1, 3) || '-' || substr('89ab', 1 + (x.g % 4)::int, 1) || substr(x.r, 4, 3) || '-' || substr(x.r, 7, 12) AS request_id,
    CASE WHEN x.m < 17 THEN 'POST' ELSE 'GET' END AS method,
    CASE WHEN x.m < 10 THEN '/v1/quotes' WHEN x.m < 15 THEN '/v1/public_quotes'
         WHEN x.m < 17 THEN '/v1/accounts/' || x.project::text || '/quote-simulations'
         WHEN x.m < 19 THEN '/v1/books/' || x.project::text ELSE '/v1/request-logs' END AS path,
    x.status,
    CASE WHEN x.status = 400 THEN 'invalid_request' WHEN x.status = 404 THEN 'not_found' WHEN x.status = 409 THEN 'idempotency_conflict'
         WHEN x.status = 422 THEN 'invalid_request' WHEN x.status = 429 THEN 'rate_limited' WHEN x.status = 500 THEN 'internal_error' END AS error_code,
    CASE WHEN x.m BETWEEN 10 AND 14 THEN 'anonymous' WHEN x.m >= 17 THEN 'session' ELSE 'api_key' END AS principal,
    CASE WHEN x.m BETWEEN 10 AND 14 THEN 'anonymous' WHEN x.m >= 17 THEN 'member' WHEN x.m >= 15 THEN 'account_key' ELSE 'api_key' END AS caller,
    x.m = 19 AS portal,
    '198.51.100.' || (x.g % 250)::text AS ip,
    CASE WHEN x.m < 10 OR x.m BETWEEN 15 AND 16 THEN 'quote-pricing-node/1.4.0 node/26.10.0'
         ELSE 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' END AS user_agent,
    CASE WHEN x.m < 10 OR x.m BETWEEN 15 AND 16 THEN (CASE WHEN x.live THEN ($7::uuid[])[x.tn] ELSE ($6::uuid[])[x.tn] END) END AS api_key_id,
    CASE WHEN x.m >= 17 THEN ($10::uuid[])[x.tn] END AS user_id,
    ($3::uuid[])[x.tn] AS workspace_id,
    x.project AS project_id,
    CASE WHEN x.m < 17 THEN (CASE WHEN x.live OR x.m BETWEEN 10 AND 14 THEN ($5::uuid[])[x.tn] ELSE ($4::uuid[])[x.tn] END) END AS environment_id,
    CASE WHEN x.m < 17 THEN (CASE WHEN x.tn = 1 THEN ($9::uuid[])[1 + (x.b % array_length($9::uuid[], 1))::int] ELSE ($8::uuid[])[x.tn] END) END AS business_id,
    3 + (x.k % 200)::int AS latency_ms,
    x.created_at
  FROM (
    SELECT s.*, ($11::uuid[])[s.tn] AS project,
      lpad(to_hex((extract(epoch FROM s.created_at) * 1000)::bigint), 12, '0') AS t, md5(s.g::text || 'scale') AS r,
      CASE WHEN s.h < 600 THEN 201 WHEN s.h < 900 THEN 200 WHEN s.h < 940 THEN 400 WHEN s.h < 960 THEN 404
           WHEN s.h < 975 THEN 409 WHEN s.h < 985 THEN 422 WHEN s.h < 995 THEN 429 ELSE 500 END AS status
    FROM (
      SELECT g, k, created_at, (k % 20)::int AS m, ((k / 20) % 1000)::int AS h, (k / 20000) % 2 = 1 AS live,
        CASE WHEN (k / 40000) % 18 < 9 THEN 1 ELSE ((k / 40000) % 18 - 7)::int END AS tn, (k / 720000) AS b
      FROM (
        -- k: g scrambled (a bijection modulo a prime), so that every share below holds in any subset of slots.
        SELECT g, (g * 2654435761) % 4294967291 AS k, $1::timestamptz + (slot * 86400000::bigint / $2::int) * interval '1 millisecond' AS created_at
        FROM (SELECT slot, $12::bigint * $2::int + slot AS g FROM generate_series(0, $2::int - 1) AS slot WHERE (slot % $13::int = 0) = $14::boolean) n
      ) n2
    ) s
  ) x`;

const ROW_COLUMNS = `request_id, method, path, status, error_code, principal, caller, portal, ip, user_agent, api_key_id, user_id,
  workspace_id, project_id, environment_id, business_id, latency_ms, created_at`;

/**
 * One day's rows, their bodies (failures, in the last 30 days: successful quotes keep none and
 * these reads keep none, docs/request-log.md) and their count in the hourly rollup, in one
 * statement shaped like the writer's (INSERT … RETURNING, bodies, rollup upsert).
 */
const FILL_DAY = `WITH written AS (
    INSERT INTO request_logs (${ROW_COLUMNS}) ${DAY_ROWS}
    RETURNING request_id, method, path, status, error_code, workspace_id, business_id, created_at, api_key_id, portal
  ), bodies AS (
    INSERT INTO request_log_bodies (request_id, created_at, request_body, response_body)
    SELECT request_id, created_at, CASE WHEN method = 'POST' THEN $15::text END,
      json_build_object('error', json_build_object('code', error_code, 'message', 'The request could not be completed: see the documentation of ' || error_code || '.', 'requestId', request_id))::text
    FROM written WHERE status >= 400 AND $16::boolean
  )
  INSERT INTO request_log_hourly (workspace_id, business_id, hour, api_key_id, portal, status_class, requests)
  SELECT workspace_id, COALESCE(business_id, '${NONE_ID}'), date_trunc('hour', created_at, 'UTC'), COALESCE(api_key_id, '${NONE_ID}'), portal, (status / 100)::smallint, count(*)
  FROM written GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (workspace_id, business_id, hour, api_key_id, portal, status_class) DO UPDATE SET requests = request_log_hourly.requests + EXCLUDED.requests`;

/** An expired day: rows only (about to be dropped; the rollup outlives them anyway). */
const FILL_EXPIRED_DAY = `INSERT INTO request_logs (${ROW_COLUMNS}) ${DAY_ROWS}`;

function fillParams(tenancy: Tenancy, day: Date, dayIndex: number, perDay: number, stride: number, first: boolean) {
  const tenants = [tenancy.main, ...tenancy.others];
  const people = [tenancy.person, ...tenancy.otherPeople];
  return [
    day.toISOString(),
    perDay,
    tenants.map((t) => t.workspaceId),
    tenants.map((t) => t.environments.test),
    tenants.map((t) => t.environments.live),
    tenants.map((t) => t.keyIds.test),
    tenants.map((t) => t.keyIds.live),
    tenants.map((t) => t.businessId),
    tenancy.mainBusinesses,
    people.map((p) => p.userId),
    tenants.map((t) => t.projectId),
    dayIndex,
    stride,
    first,
  ];
}

/** A failed quote's request body as the log keeps it. */
const QUOTE_BODY = JSON.stringify({ businessId: '00000000-0000-4000-8000-000000000000', bookId: '00000000-0000-4000-8000-000000000001', ...demoExample, idempotencyKey: 'order-2026-11-28-000123' });

type FillPlan = { today: Date; perDay: number; stride: number };

/** Fills the 90 days before `today` (two connections, a day per statement), then VACUUM ANALYZE. */
async function fill(ctx: ScaleContext, tenancy: Tenancy, plan: FillPlan, first: boolean): Promise<{ fillSeconds: number; vacuumSeconds: number; analyzeSeconds: number }> {
  const started = performance.now();
  const days = Array.from({ length: SCALE_DAYS }, (_, i) => SCALE_DAYS - i); // days ago, oldest first
  let next = 0;
  let done = 0;
  await Promise.all(
    [0, 1].map(async () => {
      const client = new pg.Client({ connectionString: ctx.url });
      await client.connect();
      try {
        await client.query('SET synchronous_commit = off');
        while (next < days.length) {
          const ago = days[next++];
          const day = new Date(plan.today.getTime() - ago * DAY_MS);
          const dayIndex = SCALE_DAYS - ago; // 0 for the oldest
          await client.query(FILL_DAY, [...fillParams(tenancy, day, dayIndex, plan.perDay, plan.stride, first), QUOTE_BODY, ago <= BODY_DAYS]);
          done++;
          if (done % 10 === 0) log(`scale: ${done}/${SCALE_DAYS} days filled, ${((performance.now() - started) / 1000).toFixed(0)} s`);
        }
      } finally {
        await client.end();
      }
    }),
  );
  const fillSeconds = (performance.now() - started) / 1000;
  log(`scale: filled in ${fillSeconds.toFixed(0)} s; VACUUM, then ANALYZE`);
  const vacuumStarted = performance.now();
  await ctx.admin.query('VACUUM request_logs, request_log_bodies, request_log_hourly');
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const analyzeStarted = performance.now();
  await ctx.admin.query('ANALYZE request_logs, request_log_bodies, request_log_hourly');
  const analyzeSeconds = (performance.now() - analyzeStarted) / 1000;
  await ctx.admin.query('CHECKPOINT');
  return { fillSeconds, vacuumSeconds, analyzeSeconds };
}

// ---------------------------------------------------------------------------------------------
// Measuring

async function timed(runs: number, fn: () => Promise<number>, beforeMeasured?: () => Promise<void>): Promise<{ ms: LatencySummary; rowsReturned: number }> {
  let rowsReturned = 0;
  for (let i = 0; i < 5; i++) rowsReturned = await fn();
  await beforeMeasured?.();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    rowsReturned = await fn();
    ms.push(performance.now() - started);
  }
  return { ms: summarize(ms), rowsReturned };
}

/** What the reads ask for: chosen once, at the first size, and asked again at every size. */
type Probes = { newestId: string; oldestId: string; middleCursor: string; windowFrom: string; windowTo: string; since: Date };

async function chooseProbes(ctx: ScaleContext, tenancy: Tenancy, today: Date): Promise<Probes> {
  const ws = tenancy.main.workspaceId;
  const q = async (sql: string, params: unknown[]) => (await ctx.admin.query<{ request_id: string; id: string; created_at: Date }>(sql, params)).rows[0];
  const newest = await q(
    'SELECT request_id, id::text, created_at FROM request_logs WHERE workspace_id = $1 AND status >= 400 AND created_at >= $2 ORDER BY created_at DESC LIMIT 1',
    [ws, new Date(today.getTime() - DAY_MS)],
  );
  const oldest = await q('SELECT request_id, id::text, created_at FROM request_logs WHERE workspace_id = $1 AND created_at < $2 ORDER BY created_at LIMIT 1', [
    ws,
    new Date(today.getTime() - (SCALE_DAYS - 1) * DAY_MS),
  ]);
  const middleDay = new Date(today.getTime() - 45 * DAY_MS);
  const middle = await q('SELECT request_id, id::text, created_at FROM request_logs WHERE workspace_id = $1 AND created_at >= $2 ORDER BY created_at LIMIT 1', [
    ws,
    new Date(middleDay.getTime() + DAY_MS / 2),
  ]);
  return {
    newestId: newest.request_id,
    oldestId: oldest.request_id,
    middleCursor: `${middle.created_at.toISOString()}|${middle.id}`,
    windowFrom: middleDay.toISOString(),
    windowTo: new Date(middleDay.getTime() + DAY_MS).toISOString(),
    since: new Date(today.getTime() - 7 * DAY_MS),
  };
}

async function measureReads(ctx: ScaleContext, tenancy: Tenancy, probes: Probes, runs: number): Promise<ScaleRead[]> {
  const one = oneConnection(ctx.url);
  try {
    const verb: VerbContext = systemContext(one.prisma, 'bench-scale');
    const workspaceIds = [tenancy.main.workspaceId];
    // Each read with its retention read first, as the route does.
    const shownSince = () => shownSinceOf(one.prisma, workspaceIds, new Date());
    const search = (query: Record<string, unknown>) => async () =>
      (await searchRequestLogs({ ...verb, now: new Date() }, { shownSince: await shownSince(), query: requestLogQuerySchema.parse(query) })).logs.length;
    const lookup = (requestId: string) => async () => {
      const found = await getRequestLog({ ...verb, now: new Date() }, { shownSince: await shownSince(), requestId });
      return found.requestBody !== null || found.responseBody !== null ? 2 : 1;
    };
    const shapes: [string, () => Promise<number>][] = [
      ['search: newest first, no filter', search({})],
      ['search: statusClass=5xx', search({ statusClass: '5xx' })],
      ['search: path=/v1/books (prefix)', search({ path: '/v1/books' })],
      ['search: a one-day window 45 days ago', search({ from: probes.windowFrom, to: probes.windowTo })],
      ['search: a later page (cursor 45 days back)', search({ cursor: probes.middleCursor })],
      ['search: requestId=<one of the oldest day>', search({ requestId: probes.oldestId })],
      ['lookup by request id: yesterday (with bodies)', lookup(probes.newestId)],
      ['lookup by request id: the oldest day', lookup(probes.oldestId)],
      [
        "Overview: API calls of 7 days (countApiCalls)",
        async () => {
          await countApiCalls(one.prisma, { id: tenancy.main.businessId, workspaceId: tenancy.main.workspaceId }, probes.since);
          return 1;
        },
      ],
    ];
    const reads: ScaleRead[] = [];
    for (const [name, fn] of shapes) {
      const { ms, rowsReturned } = await timed(runs, fn, () => ctx.admin.query('SELECT pg_stat_statements_reset()').then(() => undefined));
      const stats = await postgresTimeSinceReset(ctx.admin);
      const read = { name, ms, rowsReturned, statementsPerRun: stats.calls / runs, planMsPerRun: stats.planMs / runs, execMsPerRun: stats.execMs / runs };
      log(`scale: ${name}: p50 ${ms.p50.toFixed(2)} ms, p95 ${ms.p95.toFixed(2)} ms; PostgreSQL plan ${read.planMsPerRun.toFixed(2)} + execution ${read.execMsPerRun.toFixed(2)} ms per run`);
      reads.push(read);
    }
    return reads;
  } finally {
    await one.close();
  }
}

/** The request-log part of the minute job, nothing to make or drop: 50 runs. */
async function measureMinuteJob(ctx: ScaleContext, today: Date): Promise<LatencySummary> {
  const one = oneConnection(ctx.url);
  try {
    const job = systemContext(one.prisma, 'request-log-partitions', today);
    const { ms } = await timed(50, async () => maintainRequestLogPartitions(job, SCALE_DAYS));
    return ms;
  } finally {
    await one.close();
  }
}

/** Fills EXPIRED_DAYS days past the retention, as full as the others, and times dropDayPartition of each. */
async function measureDrops(ctx: ScaleContext, tenancy: Tenancy, plan: FillPlan): Promise<number[]> {
  const one = oneConnection(ctx.url);
  try {
    const drops: number[] = [];
    for (let i = 1; i <= EXPIRED_DAYS; i++) {
      const day = new Date(plan.today.getTime() - (SCALE_DAYS + i) * DAY_MS);
      await createDayPartition(one.prisma, day);
      await ctx.admin.query(FILL_EXPIRED_DAY, fillParams(tenancy, day, 1000 + i, plan.perDay, 1, true));
      await ctx.admin.query(`VACUUM ANALYZE ${PARTITION_SCHEMA}.${partitionName(day)}`);
      await ctx.admin.query('CHECKPOINT');
      const started = performance.now();
      await dropDayPartition(one.prisma, partitionName(day));
      drops.push(performance.now() - started);
    }
    return drops;
  } finally {
    await one.close();
  }
}

/** A request as the route wrapper records it: 90% POST /v1/quotes 201 (no bodies), 10% failures (bodies). */
function writerEntry(tenant: Tenant, i: number): RequestLogEntry {
  const failed = i % 10 === 9;
  const requestId = newRequestId();
  return {
    requestId,
    method: 'POST',
    path: '/v1/quotes',
    status: failed ? 422 : 201,
    errorCode: failed ? 'invalid_request' : null,
    principal: 'api_key',
    caller: 'api_key',
    portal: false,
    ip: `198.51.100.${i % 250}`,
    userAgent: 'quote-pricing-node/1.4.0 node/26.10.0',
    requestBody: failed ? QUOTE_BODY : null,
    responseBody: failed ? JSON.stringify({ error: { code: 'invalid_request', message: 'factors.home_size: Required', requestId } }) : null,
    apiKeyId: tenant.keyIds.live,
    userId: null,
    workspaceId: tenant.workspaceId,
    projectId: tenant.projectId,
    environmentId: tenant.environments.live,
    businessId: tenant.businessId,
    latencyMs: 4 + (i % 40),
    testFault: null,
    createdAt: new Date(),
  };
}

/**
 * The writer's statement (insertRequestLogs) in batches of 50, one after another per connection
 * as one service process's writer sends them, for 10 s; with one connection, then two (two
 * processes). Rows of another workspace, written today; removed again afterwards.
 */
async function measureWriter(ctx: ScaleContext, tenancy: Tenancy, today: Date): Promise<ScaleSize['writers']> {
  const out: ScaleSize['writers'] = [];
  const tenant = tenancy.others[0];
  for (const connections of [1, 2]) {
    const clients = Array.from({ length: connections }, () => oneConnection(ctx.url));
    try {
      for (const c of clients) await insertRequestLogs(c.prisma, Array.from({ length: WRITER_BATCH }, (_, i) => writerEntry(tenant, i))); // prepare
      const sampler = startSampler({ postgres: ctx.postmasterPid() });
      const batchMs: number[] = [];
      let rows = 0;
      const started = performance.now();
      const until = started + WRITER_SECONDS * 1000;
      await Promise.all(
        clients.map(async (c) => {
          let i = 0;
          while (performance.now() < until) {
            const batch = Array.from({ length: WRITER_BATCH }, () => writerEntry(tenant, i++));
            const t = performance.now();
            await insertRequestLogs(c.prisma, batch);
            batchMs.push(performance.now() - t);
            rows += batch.length;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const postgresCpuSeconds = sampler.stop().postgres.cpuSeconds;
      out.push({ connections, rows, seconds, rowsPerSecond: rows / seconds, postgresCpuSeconds, rowsPerPostgresCpuSecond: rows / Math.max(0.01, postgresCpuSeconds), batchMs: summarize(batchMs) });
      log(`scale: writer x${connections}: ${Math.round(rows / seconds)} rows/s, PostgreSQL CPU ${postgresCpuSeconds.toFixed(1)} s`);
    } finally {
      for (const c of clients) await c.close();
    }
  }
  // Today and the days ahead held only the writer's rows: gone again, with their count.
  const ahead = Array.from({ length: 8 }, (_, i) => new Date(today.getTime() + i * DAY_MS));
  const names = ahead.flatMap((day) => [partitionName(day), partitionName(day, PARTITIONED.bodies)]).map((name) => `${PARTITION_SCHEMA}.${name}`);
  await ctx.admin.query(`TRUNCATE ${names.join(', ')}`);
  await ctx.admin.query('DELETE FROM request_log_hourly WHERE workspace_id = $1::uuid AND hour >= $2', [tenant.workspaceId, today]);
  return out;
}

async function measureDisk(ctx: ScaleContext): Promise<{ disk: ScaleSize['disk']; rows: number; bodies: number; rollup: ScaleSize['rollup'] }> {
  const { rows } = await ctx.admin.query<Record<string, string>>(
    `SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('request_logs') WHERE isleaf)::text AS rows_bytes,
       (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('request_log_bodies') WHERE isleaf)::text AS bodies_bytes,
       pg_total_relation_size('request_log_hourly')::text AS rollup_bytes,
       pg_database_size(current_database())::text AS database_bytes,
       (SELECT count(*) FROM request_logs)::text AS rows,
       (SELECT count(*) FROM request_log_bodies)::text AS bodies,
       (SELECT count(*) FROM request_log_hourly)::text AS rollup_rows,
       (SELECT sum(requests) FROM request_log_hourly)::text AS rollup_requests`,
  );
  const r = rows[0];
  return {
    disk: { rowsBytes: Number(r.rows_bytes), bodiesBytes: Number(r.bodies_bytes), rollupBytes: Number(r.rollup_bytes), databaseBytes: Number(r.database_bytes) },
    rows: Number(r.rows),
    bodies: Number(r.bodies),
    rollup: { rows: Number(r.rollup_rows), requests: Number(r.rollup_requests) },
  };
}

// ---------------------------------------------------------------------------------------------

export async function runScaleCases(ctx: ScaleContext, settings: ScaleSettings): Promise<ScaleResult> {
  const sizes = [...settings.sizes].sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1];
  const stride = sizes.length === 1 ? 1 : largest / sizes[0];
  if (sizes.length > 2 || !Number.isInteger(stride)) throw new Error(`scale sizes: one size, or two where the larger is a whole multiple of the smaller (got ${sizes.join(', ')})`);
  // Rows per day at the largest size, a multiple of the stride so that the first size is exact.
  const perDay = Math.floor(largest / SCALE_DAYS / stride) * stride;
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const plan: FillPlan = { today, perDay, stride };

  log('scale: provisioning (domain code)');
  const tenancy = await provisionScale(ctx.db.prisma);
  const quotes = await measureQuoteStorage(ctx, tenancy);

  // The minute job's partitions (today and a week ahead), then every filled day's, as the job
  // would have made them on its day; bodies only for the days they are kept.
  await maintainRequestLogPartitions(systemContext(ctx.db.prisma, 'request-log-partitions', today), SCALE_DAYS);
  for (let ago = 1; ago <= SCALE_DAYS; ago++) {
    const day = new Date(today.getTime() - ago * DAY_MS);
    await createDayPartition(ctx.db.prisma, day);
    if (ago <= BODY_DAYS) await createDayPartition(ctx.db.prisma, day, PARTITIONED.bodies);
  }
  // The fill writes ~25 GB: fewer checkpoints while it does (reset before measuring).
  await ctx.admin.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
  await ctx.admin.query('SELECT pg_reload_conf()');

  const results: ScaleSize[] = [];
  let probes: Probes | null = null;
  for (const [n, size] of sizes.entries()) {
    const loadStart = load();
    const rowsPerDay = (perDay / stride) * (n === 0 ? 1 : stride);
    log(`scale: filling to ${size.toLocaleString('en-US')} rows (${rowsPerDay.toLocaleString('en-US')} a day over ${SCALE_DAYS} days); load ${loadStart}`);
    await ctx.admin.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
    await ctx.admin.query('SELECT pg_reload_conf()');
    const { fillSeconds, vacuumSeconds, analyzeSeconds } = await fill(ctx, tenancy, plan, n === 0 || sizes.length === 1);
    await ctx.admin.query('ALTER SYSTEM RESET max_wal_size');
    await ctx.admin.query('SELECT pg_reload_conf()');
    await ctx.admin.query('CHECKPOINT');
    log(`scale: VACUUM ${vacuumSeconds.toFixed(0)} s, ANALYZE ${analyzeSeconds.toFixed(0)} s; measuring disk`);
    const counted = await measureDisk(ctx);
    probes ??= await chooseProbes(ctx, tenancy, today);
    const reads = await measureReads(ctx, tenancy, probes, settings.readRuns);
    const minuteJobMs = await measureMinuteJob(ctx, today);
    const writers = await measureWriter(ctx, tenancy, today);
    const dropMs = await measureDrops(ctx, tenancy, { ...plan, perDay: rowsPerDay });
    results.push({
      target: size,
      rows: counted.rows,
      bodies: counted.bodies,
      rowsPerDay,
      loadStart,
      loadEnd: load(),
      fillSeconds,
      vacuumSeconds,
      analyzeSeconds,
      rollup: counted.rollup,
      disk: counted.disk,
      reads,
      minuteJobMs,
      dropMs,
      writers,
    });
  }
  return { days: SCALE_DAYS, quotes, sizes: results };
}
