// Group `sql`: SQL statements per request (pg_stat_statements, idle background subtracted), and
// PostgreSQL's statement log of one POST /v1/quotes.
import { randomUUID } from 'node:crypto';
import { demoExample } from '../../lib/books/demo-book';
import { log, sleep, type Context } from '../context';
import type { LoadSpec } from '../load';
import { createQuoteThroughApi, runLoadProcess } from '../processes';

export type StatementStat = { query: string; calls: number; totalMs: number; meanMs: number; rows: number; plans: number; planMs: number };

export async function resetStatements(ctx: Context): Promise<void> {
  await ctx.admin.query('SELECT pg_stat_statements_reset()');
}

export async function readStatements(ctx: Context): Promise<StatementStat[]> {
  const { rows } = await ctx.admin.query<{ query: string; calls: string; total: number; rows: string; plans: string; plan_ms: number }>(
    `SELECT s.query, s.calls, s.total_exec_time AS total, s.rows, s.plans, s.total_plan_time AS plan_ms FROM pg_stat_statements s
     JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = current_database() AND s.query NOT ILIKE '%pg_stat_statements%'
     ORDER BY s.total_exec_time DESC`,
  );
  return rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').trim(),
    calls: Number(r.calls),
    totalMs: r.total,
    meanMs: r.total / Number(r.calls),
    rows: Number(r.rows),
    plans: Number(r.plans),
    planMs: r.plan_ms,
  }));
}

export type SqlProfile = {
  name: string;
  requests: number;
  statementsPerRequest: number;
  dbMsPerRequest: number;
  statements: { query: string; perRequest: number; meanMs: number; plannedShare: number; meanPlanMs: number }[];
};

/** Statements per request: N sequential requests, minus what an idle window of equal length runs. */
export async function sqlProfile(ctx: Context, name: string, spec: LoadSpec): Promise<SqlProfile> {
  log(`sql: ${name}`);
  const key = (s: StatementStat) => s.query;
  await resetStatements(ctx);
  const idleStarted = Date.now();
  await sleep(2_000);
  const idle = await readStatements(ctx);
  const idleSeconds = (Date.now() - idleStarted) / 1000;
  await resetStatements(ctx);
  const started = Date.now();
  const { result } = await runLoadProcess(ctx, name, { ...spec, connections: 1, amount: ctx.settings.sqlRequests, warmupAmount: undefined, warmupSec: undefined });
  await sleep(150); // the request log's 50 ms batch
  const busy = await readStatements(ctx);
  const seconds = (Date.now() - started) / 1000;
  const background = new Map(idle.map((s) => [key(s), { calls: (s.calls / idleSeconds) * seconds, totalMs: (s.totalMs / idleSeconds) * seconds }]));
  const n = result.requests;
  const statements = busy
    .map((s) => {
      const bg = background.get(key(s));
      return {
        query: s.query,
        perRequest: Math.max(0, s.calls - (bg?.calls ?? 0)) / n,
        meanMs: s.meanMs,
        totalMs: Math.max(0, s.totalMs - (bg?.totalMs ?? 0)),
        plannedShare: s.calls > 0 ? s.plans / s.calls : 0,
        meanPlanMs: s.plans > 0 ? s.planMs / s.plans : 0,
      };
    })
    .filter((s) => s.perRequest >= 0.02)
    .sort((a, b) => b.perRequest - a.perRequest);
  return {
    name,
    requests: n,
    statementsPerRequest: statements.reduce((a, s) => a + s.perRequest, 0),
    dbMsPerRequest: statements.reduce((a, s) => a + s.totalMs, 0) / n,
    statements: statements.map(({ query, perRequest, meanMs, plannedShare, meanPlanMs }) => ({ query: query.slice(0, 400), perRequest, meanMs, plannedShare, meanPlanMs })),
  };
}

/** PostgreSQL's own statement log for one request (log_statement = all), runner statements left out. */
async function statementLog(ctx: Context, request: () => Promise<Response>): Promise<string[]> {
  await ctx.admin.query(`ALTER SYSTEM SET log_statement = 'all'`);
  await ctx.admin.query('SELECT pg_reload_conf()');
  await sleep(500);
  const mark = ctx.pgLog.length;
  const response = await request();
  await response.text();
  await sleep(400);
  const lines = ctx.pgLog.slice(mark);
  await ctx.admin.query('ALTER SYSTEM RESET log_statement');
  await ctx.admin.query('SELECT pg_reload_conf()');
  // One entry per logged statement, continuation lines (multi-line SQL) joined; grouped by
  // backend pid so that a runner transaction (BEGIN … FOR UPDATE SKIP LOCKED … COMMIT) is dropped whole.
  const entries: { pid: string; text: string }[] = [];
  let current: { pid: string; text: string } | null = null;
  for (const line of lines) {
    const m = /\[(\d+)\].*LOG:\s+(?:statement|execute [^:]*):\s*(.*)$/.exec(line);
    if (m) {
      current = { pid: m[1], text: m[2] };
      entries.push(current);
    } else if (/^\d{4}-\d\d-\d\d /.test(line)) {
      current = null; // another kind of line (DETAIL: parameters, …)
    } else if (current) {
      current.text += ` ${line}`;
    }
  }
  const byPid = new Map<string, string[]>();
  const order: { pid: string; text: string }[] = [];
  for (const entry of entries) {
    const text = entry.text.replace(/\s+/g, ' ').trim();
    if (/pg_reload_conf|ALTER SYSTEM/.test(text)) continue;
    order.push({ pid: entry.pid, text });
    byPid.set(entry.pid, [...(byPid.get(entry.pid) ?? []), text]);
  }
  const runner = /SKIP LOCKED|leased_until|webhook_attempts|"dispatched_at"|dispatched_at IS NULL/;
  const out: string[] = [];
  const seen = new Map<string, number>(); // per pid: how many of its statements came before
  const inRunnerTx = new Set<string>();
  for (const { pid, text } of order) {
    const i = seen.get(pid) ?? 0;
    seen.set(pid, i + 1);
    if (/^BEGIN/i.test(text)) {
      const rest = byPid.get(pid)!;
      const end = rest.findIndex((t, j) => j > i && /^(COMMIT|ROLLBACK)/i.test(t));
      if (rest.slice(i, end < 0 ? undefined : end + 1).some((t) => runner.test(t))) {
        inRunnerTx.add(pid);
        continue;
      }
    }
    if (inRunnerTx.has(pid)) {
      if (/^(COMMIT|ROLLBACK)/i.test(text)) inRunnerTx.delete(pid);
      continue;
    }
    if (runner.test(text)) continue;
    out.push(text.slice(0, 160));
  }
  return out;
}

export async function runSqlCases(ctx: Context): Promise<{ profiles: SqlProfile[]; quoteStatementLog: string[] }> {
  const { tenant, person, accounts, businessIds } = ctx.setup;
  const quoteBody = { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample };
  const apiHeaders = { authorization: `Bearer ${tenant.keys.test}` };
  const profiles: SqlProfile[] = [];
  profiles.push(await sqlProfile(ctx, 'POST /v1/quotes', { url: ctx.next.url, method: 'POST', path: '/v1/quotes', headers: apiHeaders, body: quoteBody, uniqueField: 'idempotencyKey', connections: 1 }));
  profiles.push(
    await sqlProfile(ctx, 'POST /v1/quotes without idempotencyKey', { url: ctx.next.url, method: 'POST', path: '/v1/quotes', headers: apiHeaders, body: quoteBody, connections: 1 }),
  );
  profiles.push(
    await sqlProfile(ctx, 'POST /v1/public_quotes', {
      url: ctx.next.url,
      method: 'POST',
      path: '/v1/public_quotes',
      body: { ...demoExample },
      variants: businessIds.slice(0, 50).map((businessId) => ({ body: { businessId } })),
      uniqueField: 'idempotencyKey',
      connections: 1,
    }),
  );
  const replayBody = { ...quoteBody, idempotencyKey: `sql-replay-${randomUUID()}` };
  const replayedId = await createQuoteThroughApi(ctx.next.url, tenant.keys.test, replayBody);
  profiles.push(await sqlProfile(ctx, 'POST /v1/quotes (replay)', { url: ctx.next.url, method: 'POST', path: '/v1/quotes', headers: apiHeaders, body: replayBody, connections: 1 }));
  profiles.push(
    await sqlProfile(ctx, 'POST /v1/accounts/{id}/quote-simulations', {
      url: ctx.next.url,
      method: 'POST',
      path: '/x',
      body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
      variants: accounts.map((a) => ({ path: `/v1/accounts/${a.accountId}/quote-simulations`, headers: { authorization: `Bearer ${a.key}` } })),
      connections: 1,
    }),
  );
  profiles.push(
    await sqlProfile(ctx, 'GET /v1/request-logs', { url: ctx.next.url, method: 'GET', path: '/v1/request-logs', headers: { authorization: `Bearer ${person.token}` }, connections: 1 }),
  );
  profiles.push(
    await sqlProfile(ctx, 'GET /v1/quote-intents/{id}/trace', {
      url: ctx.next.url,
      method: 'GET',
      path: `/v1/quote-intents/${replayedId}/trace`,
      headers: { authorization: `Bearer ${person.token}` },
      connections: 1,
    }),
  );
  const quoteStatementLog = await statementLog(ctx, () =>
    fetch(`${ctx.next.url}/v1/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...apiHeaders },
      body: JSON.stringify({ ...quoteBody, idempotencyKey: `log-${randomUUID()}` }),
    }),
  );
  return { profiles, quoteStatementLog };
}
