// Group `search`: request-log search shapes and the quote trace over a million request-log rows,
// one connection each, with the statements each one spends most time in.
import { randomUUID } from 'node:crypto';
import { demoExample } from '../../lib/books/demo-book';
import { log, sleep, type Context } from '../context';
import type { LoadResult } from '../load';
import { createQuoteThroughApi, runLoadProcess } from '../processes';
import { readStatements, resetStatements, type StatementStat } from './sql';
import { createDayPartition, NONE_ID } from '../../lib/requestlog/store';
import { countApiCalls, countQuotesPerDay } from '../../lib/overview/store';
import { QUOTE_ROLLUP_MARK, rollUpQuoteOutcomes } from '../../lib/quotes/store/rollup';

export type SearchCase = {
  name: string;
  query: string;
  result: LoadResult;
  topStatements: StatementStat[];
  /** PostgreSQL's planning per request, every statement of it (pg_stat_statements, warm-up included). */
  planMsPerRequest: number;
};
export type SearchResult = {
  rows: number;
  insertSeconds: number;
  cases: SearchCase[];
  /** The Overview's "API calls, 7 days" of the bench's business, ms per run: counted from the rows (before issue 31) and from the hourly rollup. */
  apiCalls7Days: { rows: number; fromRowsMs: number[]; fromRollupMs: number[] };
  /**
   * The Overview's Live quotes per day of 14 days: counted from the quotes (before issue 31) and
   * from the hourly rollup, ms per run; and the minute job: counting every filled quote once
   * (`catchUpMs`), then its run a minute later (`minuteRunMs`, the quotes made since).
   */
  quotesPerDay: { quotes: number; fromRowsMs: number[]; fromRollupMs: number[]; catchUpMs: number; minuteRunMs: number };
};

/** Days of request-log partitions behind today in the search group: a workspace keeping a year. */
const YEAR_OF_PARTITIONS = 365;
const WARMUP_REQUESTS = 5;

async function fillRequestLog(ctx: Context): Promise<{ rows: number; insertSeconds: number }> {
  const { tenant, person } = ctx.setup;
  const { rows } = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
  const missing = Math.max(0, ctx.settings.logRows - Number(rows[0].n));
  log(`search: inserting ${missing.toLocaleString('en-US')} request-log rows`);
  const started = Date.now();
  // Their days' partitions first, as the minute job would have made them when they were written.
  const { rows: bounds } = await ctx.admin.query<{ oldest: Date }>('SELECT coalesce(min(created_at), now()) AS oldest FROM request_logs');
  const DAY = 86_400_000;
  for (let day = Math.floor((bounds[0].oldest.getTime() - missing * 2_000) / DAY) * DAY; day <= bounds[0].oldest.getTime(); day += DAY) {
    await createDayPartition(ctx.db.prisma, new Date(day));
  }
  // A workspace that keeps a year (issue 43): the year's day partitions, most of them empty, are
  // what a search without a time window would plan over; the minute job keeps them for it.
  const retention = await fetch(`${ctx.next.url}/v1/workspaces/${tenant.workspaceId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requestLogRetentionDays: YEAR_OF_PARTITIONS }),
  });
  if (retention.status !== 200) throw new Error(`setting the workspace's retention: ${retention.status} ${await retention.text()}`);
  const today = Math.floor(Date.now() / DAY) * DAY;
  for (let back = 1; back <= YEAR_OF_PARTITIONS; back++) await createDayPartition(ctx.db.prisma, new Date(today - back * DAY));
  // Two seconds apart, about 23 days of traffic, all of it before the oldest row already there
  // (the http group's requests, made minutes ago): ids and times then tell the same story. Statuses:
  // 60% 201, 30% 200, then 400/404/409/422/429 and 0.5% 500. Paths and principals as the API has them.
  await ctx.admin.query(
    `INSERT INTO request_logs (request_id, method, path, status, error_code, principal, api_key_id, user_id, workspace_id,
       project_id, environment_id, business_id, latency_ms, created_at)
     SELECT md5(g::text || 'bench')::uuid::text,
       CASE WHEN g % 20 < 17 THEN 'POST' ELSE 'GET' END,
       CASE WHEN g % 20 < 10 THEN '/v1/quotes' WHEN g % 20 < 15 THEN '/v1/public_quotes'
            WHEN g % 20 < 17 THEN '/v1/accounts/' || $3 || '/quote-simulations'
            WHEN g % 20 < 19 THEN '/v1/books/' || $6 ELSE '/v1/request-logs' END,
       s.status,
       CASE WHEN s.status = 400 THEN 'invalid_request' WHEN s.status = 404 THEN 'not_found' WHEN s.status = 409 THEN 'idempotency_conflict'
            WHEN s.status = 422 THEN 'invalid_request' WHEN s.status = 429 THEN 'rate_limited' WHEN s.status = 500 THEN 'internal_error' END,
       CASE WHEN g % 20 BETWEEN 10 AND 14 THEN 'anonymous' WHEN g % 20 >= 17 THEN 'session' ELSE 'api_key' END,
       CASE WHEN g % 20 < 10 OR g % 20 BETWEEN 15 AND 16 THEN (CASE WHEN g % 2 = 0 THEN $7 ELSE $8 END)::uuid END,
       CASE WHEN g % 20 >= 17 THEN $9::uuid END,
       $1::uuid, $3::uuid, (CASE WHEN g % 2 = 0 THEN $4 ELSE $5 END)::uuid, $2::uuid,
       3 + ((g::bigint * 31) % 200)::int,
       o.oldest - ($10::int - g + 1) * interval '2 seconds'
     FROM generate_series(1, $10::int) AS g,
       (SELECT coalesce(min(created_at), now()) AS oldest FROM request_logs) o,
       LATERAL (SELECT CASE WHEN h < 600 THEN 201 WHEN h < 900 THEN 200 WHEN h < 940 THEN 400 WHEN h < 960 THEN 404
                            WHEN h < 975 THEN 409 WHEN h < 985 THEN 422 WHEN h < 995 THEN 429 ELSE 500 END AS status
                FROM (SELECT ((g::bigint * 7919) % 1000)::int AS h) x) s`,
    [
      tenant.workspaceId,
      tenant.businessId,
      tenant.projectId,
      tenant.environments.test,
      tenant.environments.live,
      tenant.bookId,
      tenant.keyIds.test,
      tenant.keyIds.live,
      person.userId,
      missing,
    ],
  );
  // What the request-log writer would have counted had these rows come through it.
  await ctx.admin.query('DELETE FROM request_log_hourly WHERE workspace_id = $1::uuid', [tenant.workspaceId]);
  await ctx.admin.query(
    `INSERT INTO request_log_hourly (workspace_id, business_id, hour, api_key_id, portal, status_class, requests)
     SELECT workspace_id, COALESCE(business_id, '${NONE_ID}'), date_trunc('hour', created_at, 'UTC'), COALESCE(api_key_id, '${NONE_ID}'),
       portal, (status / 100)::smallint, count(*)
     FROM request_logs WHERE workspace_id = $1::uuid GROUP BY 1, 2, 3, 4, 5, 6`,
    [tenant.workspaceId],
  );
  await ctx.admin.query('VACUUM ANALYZE request_logs');
  await ctx.admin.query('VACUUM ANALYZE request_log_hourly');
  await ctx.admin.query('ANALYZE outbox_events');
  const total = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
  return { rows: Number(total.rows[0].n), insertSeconds: (Date.now() - started) / 1000 };
}

export async function runSearchCases(ctx: Context): Promise<SearchResult> {
  const { tenant, person } = ctx.setup;
  const filled = await fillRequestLog(ctx);
  const middle = (
    await ctx.admin.query<{ id: string; request_id: string; created_at: Date }>(
      'SELECT id::text, request_id, created_at FROM request_logs ORDER BY created_at, id LIMIT 1 OFFSET $1',
      [Math.floor(filled.rows / 2)],
    )
  ).rows[0];
  // The quote to trace: one made through the API now (its request log row and outbox event exist).
  const quoteIntentId = await createQuoteThroughApi(ctx.next.url, tenant.keys.test, {
    businessId: tenant.businessId,
    bookId: tenant.bookId,
    ...demoExample,
    idempotencyKey: `trace-${randomUUID()}`,
  });
  await sleep(200);
  const quote = (
    await ctx.admin.query<{ id: string; request_correlation_id: string }>(
      'SELECT id::text, request_correlation_id FROM quote_intents WHERE id = $1',
      [quoteIntentId],
    )
  ).rows[0];
  const day = 24 * 3600_000;
  const windowFrom = new Date(middle.created_at.getTime() - day / 2).toISOString();
  const windowTo = new Date(middle.created_at.getTime() + day / 2).toISOString();
  const shapes: [string, string][] = [
    ['request-logs: no filter', '/v1/request-logs'],
    ['request-logs: statusClass=4xx', '/v1/request-logs?statusClass=4xx'],
    ['request-logs: statusClass=5xx', '/v1/request-logs?statusClass=5xx'],
    ['request-logs: requestId=<one>', `/v1/request-logs?requestId=${middle.request_id}`],
    ['request-logs: path=/v1/books (prefix)', '/v1/request-logs?path=%2Fv1%2Fbooks'],
    ['request-logs: apiKeyId=<test key>', `/v1/request-logs?apiKeyId=${tenant.keyIds.test}`],
    ['request-logs: live, a one-day window', `/v1/request-logs?environment=live&from=${encodeURIComponent(windowFrom)}&to=${encodeURIComponent(windowTo)}`],
    ['request-logs: a later page (cursor)', `/v1/request-logs?cursor=${encodeURIComponent(`${middle.created_at.toISOString()}|${middle.id}`)}`],
    ['trace: by quote intent id', `/v1/quote-intents/${quote.id}/trace`],
    ['trace: by request id', `/v1/quote-intents/${quote.request_correlation_id}/trace`],
    ['overview of the business (API calls from the rollup)', `/v1/businesses/${tenant.businessId}/overview`],
  ];
  const cases: SearchCase[] = [];
  for (const [name, query] of shapes) {
    const check = await fetch(`${ctx.next.url}${query}`, { headers: { authorization: `Bearer ${person.token}` } });
    if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
    log(name);
    await resetStatements(ctx);
    const { result } = await runLoadProcess(ctx, name, {
      url: ctx.next.url,
      method: 'GET',
      path: query,
      headers: { authorization: `Bearer ${person.token}` },
      connections: 1,
      amount: ctx.settings.searchRequests,
      warmupAmount: WARMUP_REQUESTS,
    });
    const statements = await readStatements(ctx);
    const planMs = statements.reduce((sum, statement) => sum + statement.planMs, 0);
    cases.push({ name, query, result, topStatements: statements.slice(0, 4), planMsPerRequest: planMs / (result.requests + WARMUP_REQUESTS) });
  }
  return { ...filled, cases, apiCalls7Days: await timeApiCalls(ctx), quotesPerDay: await timeQuotesPerDay(ctx) };
}

/** Quotes a business made in its Live environment, 14 days of them, as the quote path writes them (intent and receipt). */
const QUOTES_TO_FILL = 300_000;

/**
 * Fills the business's Live quotes (4 s apart, ~14 days, before any quote there: 80% succeeded,
 * 15% requires input, 5% failed), has the minute job count them, and times the Overview's
 * quotes per day both ways, five times each.
 */
async function timeQuotesPerDay(ctx: Context): Promise<SearchResult['quotesPerDay']> {
  const { tenant } = ctx.setup;
  log(`search: inserting ${QUOTES_TO_FILL.toLocaleString('en-US')} quotes`);
  const { rows: marks } = await ctx.admin.query<{ through: Date }>(`SELECT through FROM rollup_marks WHERE name = '${QUOTE_ROLLUP_MARK}'`);
  const now = new Date();
  await ctx.admin.query(
    `WITH g AS (
       SELECT g, md5(g::text || 'bench-quote')::uuid AS intent_id, md5(g::text || 'bench-receipt')::uuid AS receipt_id,
         CASE WHEN g % 20 < 16 THEN 'succeeded' WHEN g % 20 < 19 THEN 'requires_input' ELSE 'failed' END AS outcome,
         $6::timestamptz - g * interval '4 seconds' AS at
       FROM generate_series(1, $7::int) AS g
     ), intents AS (
       INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id, business_id, status, source,
         idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs, expires_at, created_at, updated_at)
       SELECT intent_id, $1::uuid, $2::uuid, $3::uuid, $4::uuid, (SELECT book_version_id FROM publications WHERE book_id = $4::uuid AND environment_id = $3::uuid),
         $5::uuid, outcome::"QuoteIntentStatus", 'api', 'api', 'bench-' || g, md5(g::text), 'bench-' || g, '{"offeringId":"window_cleaning"}', at + interval '30 days', at, at
       FROM g RETURNING 1
     )
     INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, book_version_id, computation, missing_inputs, idempotency_key, request_correlation_id, latency_ms, created_at)
     SELECT receipt_id, intent_id, outcome::"ReceiptOutcome", 'api', NULL, '{"totalMinor":15525}', '{}', 'bench-' || g, 'bench-' || g, 3, at FROM g`,
    [tenant.workspaceId, tenant.projectId, tenant.environments.live, tenant.bookId, tenant.businessId, (marks[0]?.through ?? now).toISOString(), QUOTES_TO_FILL],
  );
  await ctx.admin.query('VACUUM ANALYZE quote_intents');
  await ctx.admin.query('VACUUM ANALYZE quote_receipts');
  // The quotes are older than the job's mark: move it back before them, then let the job count
  // them (once), then run it again.
  // Counted afresh from 15 days back: what the rollup held from there is dropped with it (the
  // mark's row locked, as the service's own minute job locks it).
  await ctx.admin.query('BEGIN');
  await ctx.admin.query(`SELECT 1 FROM rollup_marks WHERE name = '${QUOTE_ROLLUP_MARK}' FOR UPDATE`);
  await ctx.admin.query(`UPDATE rollup_marks SET through = date_trunc('hour', now() - interval '15 days') WHERE name = '${QUOTE_ROLLUP_MARK}'`);
  await ctx.admin.query(`DELETE FROM quote_outcomes_hourly WHERE hour >= date_trunc('hour', now() - interval '15 days')`);
  await ctx.admin.query('COMMIT');
  let started = performance.now();
  await rollUpQuoteOutcomes(ctx.db.prisma, 0);
  const catchUpMs = performance.now() - started;
  // A minute later: the quotes made in that minute (none here; the cost of finding them).
  started = performance.now();
  await rollUpQuoteOutcomes(ctx.db.prisma, 0);
  const minuteRunMs = performance.now() - started;
  await ctx.admin.query('VACUUM ANALYZE quote_outcomes_hourly');

  const since = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 - 13 * 86_400_000);
  // The Overview's query before issue 31: the quotes joined to their receipts.
  const fromRowsSql = `SELECT to_char(date_trunc('day', qi.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
       count(*) FILTER (WHERE r.outcome = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE r.outcome = 'requires_input')::int AS "requiresInput",
       count(*) FILTER (WHERE r.outcome = 'failed')::int AS failed
     FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
     WHERE qi.business_id = $1::uuid AND qi.created_at >= $2::timestamptz AND qi.environment_id = $3::uuid GROUP BY 1`;
  const fromRowsMs: number[] = [];
  const fromRollupMs: number[] = [];
  let quotes = 0;
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    const raw = await ctx.admin.query<{ day: string; succeeded: number; requiresInput: number; failed: number }>(fromRowsSql, [tenant.businessId, since, tenant.environments.live]);
    fromRowsMs.push(performance.now() - started);
    started = performance.now();
    const rolled = await countQuotesPerDay(ctx.db.prisma, tenant.businessId, tenant.environments.live, since);
    fromRollupMs.push(performance.now() - started);
    const total = (days: { succeeded: number; requiresInput: number; failed: number }[]) => days.reduce((a, d) => a + d.succeeded + d.requiresInput + d.failed, 0);
    quotes = total(raw.rows);
    if (total(rolled) !== quotes) throw new Error(`quotes per day: the rollup counts ${total(rolled)}, the quotes ${quotes}`);
  }
  return { quotes, fromRowsMs, fromRollupMs, catchUpMs, minuteRunMs };
}

/** The Overview's API-call count of 7 days, five times each way, with the latest rows' time as "now". */
async function timeApiCalls(ctx: Context): Promise<SearchResult['apiCalls7Days']> {
  const { tenant } = ctx.setup;
  const { rows } = await ctx.admin.query<{ latest: Date }>('SELECT max(created_at) AS latest FROM request_logs WHERE workspace_id = $1::uuid', [tenant.workspaceId]);
  const since = new Date(rows[0].latest.getTime() - 7 * 24 * 3600_000);
  const fromRowsSql = `SELECT count(*)::int AS total, count(*) FILTER (WHERE status >= 400)::int AS failed
    FROM request_logs WHERE workspace_id = $1::uuid AND business_id = $2::uuid AND created_at >= $3::timestamptz AND NOT portal`;
  const fromRowsMs: number[] = [];
  const fromRollupMs: number[] = [];
  let counted = 0;
  for (let i = 0; i < 5; i++) {
    let started = performance.now();
    const raw = await ctx.admin.query<{ total: number }>(fromRowsSql, [tenant.workspaceId, tenant.businessId, since]);
    fromRowsMs.push(performance.now() - started);
    counted = raw.rows[0].total;
    started = performance.now();
    await countApiCalls(ctx.db.prisma, { id: tenant.businessId, workspaceId: tenant.workspaceId }, since);
    fromRollupMs.push(performance.now() - started);
  }
  return { rows: counted, fromRowsMs, fromRollupMs };
}
