// `npm run bench [-- --json] [--quick] [--profile [public|trace|experiment]] [--only http,experiments,engine,webhooks,search,sql,impact,receipts]`
// `npm run bench -- --only builds --against DIR [--connections 8,32] [--quick]`: this tree's service beside DIR's, loaded at once.
// `npm run bench -- --only http [--connections 8] [--write-docs]`: the http group (and `--profile`) at the concurrencies named;
// `--write-docs` puts its table of route families in docs/performance.md.
// `npm run bench -- --only experiments [--side-by-side 8,32]`: the connections (in all) the side-by-side rounds run at (32 unless named).
// `npm run bench -- --only scale [--scale-sizes 10,50] [--experiment-quotes 10]`: the request log at
// 10M and 50M rows, then an experiment's results at 10M quotes, each on a database of its own; never
// part of the default set (it writes ~30 GB and takes most of an hour). A size of 0 skips that part.
//
// The benchmark suite: a fresh embedded PostgreSQL in a temp dir, migrations, a tenant made by
// domain code, a production build served by scripts/serve.mjs, and beside it the reference server
// (bench/reference-server.ts: node:http + pg, the least work a quote creation can do), both
// loaded by autocannon from a separate process (bench/load.ts), in the same run, on the same
// database. Prints tables; `--json` also writes bench/results/latest.json. See docs/performance.md.
// The cases, one module per group: bench/cases/{http,experiments,engine,webhooks,search,sql,impact,receipts,profile,scale}.ts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { demoBookArtifact, demoExample } from '../lib/books/demo-book';
import { createDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { bookArtifactSchema, compileBook, evaluate } from '../lib/pricing';
import { startReceiver } from '../lib/testing/https-receiver';
import { ensureBuild, startThrowawayService } from '../scripts/support/next-server';
import { writeTestCertificates } from '../scripts/support/test-certificates';
import { runBuildsSideBySide, type BuildsComparison } from './cases/builds';
import { runEngineCases } from './cases/engine';
import { ROUTE_LABEL, runExperimentCostCases, serviceCpuPerRequest, type ExperimentCostResult, type SideBySideComparison, type SideMeasure } from './cases/experiments';
import { isReference, referenceGroupOf, runHttpCases, type HttpCase } from './cases/http';
import { runImpactCase, type ImpactBenchResult } from './cases/impact';
import { PROFILED_ROUTE_LABELS, runProfile, type ProfiledRoute, type ProfileResult } from './cases/profile';
import { runReceiptCases, type ReceiptBenchResult } from './cases/receipts';
import { runExperimentScale, type ExperimentScaleResult } from './cases/experiment-scale';
import { runScaleCases, type ScaleContext, type ScaleResult, type ScaleSize } from './cases/scale';
import { runSearchCases, type SearchResult } from './cases/search';
import { runSqlCases, type SqlProfile } from './cases/sql';
import { FAN_ENDPOINTS, runWebhookCases, type WebhookResult } from './cases/webhooks';
import { webhookWindow } from '../lib/webhooks/send-window';
import { log, root, type Context, type Settings } from './context';
import type { EngineResult } from './engine';
import { listeningPort, stopChild, tsxArgs, waitForHttp } from './processes';
import type { TreeUsage } from './procfs';
import type { ProfileSummary } from './profile-summary';
import { provision } from './provision';
import { routeFamilyTable, writeRouteFamilies } from './route-families';
import type { ReferenceConfig } from './reference-server';
import { fmt, formatTable, median, ratio } from './stats';
import { forgetSettings } from '../lib/settings/settings';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
/** The value after an option (`--only http` gives `http`), or null without the option. */
const valueOf = (name: string): string | null => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? null) : null;
};
const quick = flag('--quick');
/** `--profile [public|trace|experiment]`: the route the CPU profile's load asks (POST /v1/quotes unless named). */
const profiledRoute: ProfiledRoute = (Object.keys(PROFILED_ROUTE_LABELS) as ProfiledRoute[]).find((r) => valueOf('--profile') === r) ?? 'quotes';
const only = valueOf('--only') === null ? null : new Set(valueOf('--only')!.split(','));
const wants = (group: string) => !only || only.has(group);
/** Groups that run only when named: `scale`. */
const named = (group: string) => only?.has(group) ?? false;
/** `--scale-sizes 10,50`: the request log's sizes in millions of rows (default 10 then 50). */
const SCALE_SIZES = (valueOf('--scale-sizes') ?? '10,50')
  .split(',')
  .map((m) => Math.round(Number(m) * 1_000_000))
  .filter((rows) => rows > 0);
/** `--side-by-side 8,32`: the connections, both sides together, of the experiments' side-by-side rounds (32 unless named; even numbers). */
const SIDE_BY_SIDE_CONNECTIONS = (valueOf('--side-by-side') ?? '32').split(',').map((n) => 2 * Math.max(1, Math.round(Number(n) / 2)));
/** `--experiment-quotes 10`: the experiment's quotes in millions for its results at scale (0: skip). */
const EXPERIMENT_QUOTES = Math.round(Number(valueOf('--experiment-quotes') ?? '10') * 1_000_000);

/** `--against DIR`: the other checkout of the `builds` group (built there first). */
const AGAINST = valueOf('--against');

/** `--connections 8` (or `1,8`): the http group's concurrencies (1, 8 and 32 unless named); the first also the profile's (32 unless named). */
const CONNECTIONS = valueOf('--connections')?.split(',').map(Number).filter((n) => n > 0) ?? null;

const SETTINGS: Settings = quick
  ? { warmupSec: 2, durationSec: 3, connections: [1, 8, 32], pooledRounds: 1, searchRequests: 40, idleEvents: 5, burstEvents: 400, logRows: 1_000_000, sqlRequests: 50 }
  : { warmupSec: 5, durationSec: 10, connections: [1, 8, 32], pooledRounds: 3, searchRequests: 200, idleEvents: 12, burstEvents: 2_000, logRows: 1_000_000, sqlRequests: 200 };
if (CONNECTIONS) SETTINGS.connections = CONNECTIONS;

// ---------------------------------------------------------------------------------------------
// Processes

/** A fresh embedded PostgreSQL with pg_stat_statements preloaded (a restart applies it). */
async function startDatabase(tmp: string, pgLog: string[]) {
  const dataDir = path.join(tmp, 'pg');
  const onLog = (line: string) => {
    pgLog.push(line);
    if (pgLog.length > 200_000) pgLog.splice(0, 100_000);
  };
  let database = await startEmbeddedPostgres({ dataDir, onLog });
  const first = new pg.Client({ connectionString: database.url });
  await first.connect();
  await first.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
  await first.query(`ALTER SYSTEM SET pg_stat_statements.max = 10000`);
  // Planning is CPU too: a statement planned on every call shows in `plans` and `total_plan_time`.
  await first.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
  await first.end();
  await database.stop();
  database = await startEmbeddedPostgres({ dataDir, onLog });
  const admin = new pg.Pool({ connectionString: database.url, max: 3 });
  admin.on('error', (error) => log(`admin connection closed: ${error.message}`));
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { database, admin, postmasterPid };
}

// ---------------------------------------------------------------------------------------------
// Output

const mb = (u: TreeUsage | undefined) => (u ? fmt(u.peakProcessRssMb, 0) : '');
const x = (v: number | null | undefined) => (v == null ? '' : `${v.toFixed(2)}x`);

function httpTable(cases: HttpCase[]): string {
  return formatTable(
    ['case', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'peak RSS MB', 'req/s vs ref', 'p99 vs ref', 'server CPU ms/req', 'PG CPU ms/req', 'CPU/req vs ref', 'non-2xx', 'outbox backlog'],
    cases.map((c) => {
      const server = isReference(c.group) ? c.usage.reference : c.usage.service;
      const n = c.result.requests || 1;
      return [
        c.name,
        c.connections,
        fmt(c.result.requestsPerSecond, 0),
        fmt(c.result.latency.p50, 2),
        fmt(c.result.latency.p95, 2),
        fmt(c.result.latency.p99, 2),
        mb(server),
        x(c.vsReference?.throughput),
        x(c.vsReference?.p99),
        server ? fmt((server.cpuSeconds * 1000) / n, 2) : '',
        c.usage.postgres ? fmt((c.usage.postgres.cpuSeconds * 1000) / n, 2) : '',
        x(c.vsReference?.cpu),
        c.result.non2xx + c.result.errors,
        isReference(c.group) ? '' : c.outboxBacklog,
      ];
    }),
  );
}

function roundsTable(cases: HttpCase[]): string {
  const pooled = cases.filter((c) => c.rounds);
  return formatTable(
    ['case', 'conns', 'round', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs ref', 'p99 vs ref'],
    pooled.flatMap((c) =>
      c.rounds!.map((round, i) => {
        const ref = isReference(c.group)
          ? undefined
          : pooled.find((p) => p.group === referenceGroupOf(c.group) && p.connections === c.connections)?.rounds?.[i];
        return [
          c.name,
          c.connections,
          i + 1,
          fmt(round.requestsPerSecond, 0),
          fmt(round.p50, 2),
          fmt(round.p99, 2),
          ref ? x(ratio(round.requestsPerSecond, ref.requestsPerSecond)) : '',
          ref ? x(ratio(round.p99, ref.p99)) : '',
        ];
      }),
    ),
  );
}

function experimentCostReport(e: ExperimentCostResult): string {
  const cases = formatTable(
    ['case', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'peak RSS MB', 'server CPU ms/req', 'PG CPU ms/req', 'CPU ms/req', 'non-2xx', 'first receipt'],
    e.cases.map((c) => {
      const n = c.result.requests || 1;
      return [
        c.name,
        c.connections,
        fmt(c.result.requestsPerSecond, 0),
        fmt(c.result.latency.p50, 2),
        fmt(c.result.latency.p95, 2),
        fmt(c.result.latency.p99, 2),
        mb(c.usage.service),
        c.usage.service ? fmt((c.usage.service.cpuSeconds * 1000) / n, 2) : '',
        c.usage.postgres ? fmt((c.usage.postgres.cpuSeconds * 1000) / n, 2) : '',
        fmt(serviceCpuPerRequest(c), 2),
        c.result.non2xx + c.result.errors,
        c.receipt,
      ];
    }),
  );
  const rounds = formatTable(
    ['case', 'conns', 'round', 'req/s', 'p50 ms', 'p99 ms'],
    e.cases.flatMap((c) => (c.rounds ?? []).map((r, i) => [c.name, c.connections, i + 1, fmt(r.requestsPerSecond, 0), fmt(r.p50, 2), fmt(r.p99, 2)])),
  );
  const comparisons = formatTable(
    ['route', 'conns', 'req/s with / without', 'p50 with / without', 'p99 with / without', 'CPU/req with / without', 'median of rounds: req/s, CPU/req'],
    e.comparisons.map((c) => [
      c.route === 'quotes' ? 'POST /v1/quotes' : 'POST /v1/public_quotes',
      c.connections,
      x(c.throughput),
      x(c.p50),
      x(c.p99),
      x(c.cpu),
      `${x(c.paired.throughput)}, ${x(c.paired.cpu)}`,
    ]),
  );
  return [
    `\nA running experiment on the quote path (control + a variant 5% dearer, 50/50; a new subject per request; without and with alternated, rounds pooled)\n${cases}`,
    ...(e.cases.some((c) => c.rounds) ? [`\nRounds (alternated: without then with in odd rounds, with then without in even ones)\n${rounds}`] : []),
    `\n${comparisons}`,
    ...(e.sideBySide.length > 0 ? [`\n${sideBySideReport(e.sideBySide)}`] : []),
    `The experiment tenant's quotes by environment and arm (receipts): ${e.arms.map((a) => `${a.environment} ${a.arm} ${a.quotes.toLocaleString('en-US')}`).join(', ')}`,
    `\nSQL per request, with and without (sequential requests; pg_stat_statements, idle background subtracted)\n${sqlTable(e.sql)}`,
    ...e.sql.map((p) => `\n${p.name}\n${p.statements.map((st) => `  ${st.perRequest.toFixed(2)}  ${st.meanMs.toFixed(3)} ms  ${st.query.slice(0, 140)}`).join('\n')}`),
  ].join('\n');
}

/** The side-by-side rounds (bench/cases/experiments.ts, runSideBySide): each side's figures, the round's ratios, the estimates. */
function sideBySideReport(comparisons: SideBySideComparison[]): string {
  const side = (m: SideMeasure) =>
    `${m.side}: ${fmt(m.requestsPerSecond, 0)}/s, ${fmt(m.cpuMsPerRequest, 3)} ms (${fmt((m.postgresCpuSeconds * 1000) / Math.max(1, m.requests), 3)} PG)${m.non2xx > 0 ? `, ${m.non2xx} non-2xx` : ''}`;
  const rounds = formatTable(
    ['route', 'conns', 'round', 'with: req/s, CPU ms/req (PostgreSQL)', 'without', 'req/s with / without', 'CPU with / without'],
    comparisons.flatMap((c) =>
      c.rounds.map((r, i) => [c.route === 'quotes' ? 'POST /v1/quotes' : 'POST /v1/public_quotes', c.connections, i + 1, side(r.with), side(r.without), x(r.throughput), x(r.cpu)]),
    ),
  );
  const estimates = formatTable(
    ['route', 'conns', 'CPU: pairs', 'CPU: median', 'CPU: pooled', 'req/s: pairs', 'req/s: median', 'PostgreSQL CPU of neither side, ms/req'],
    comparisons.map((c) => [
      c.route === 'quotes' ? 'POST /v1/quotes' : 'POST /v1/public_quotes',
      c.connections,
      c.cpu.pairs.map(x).join(' '),
      x(c.cpu.median),
      x(c.pooledCpu),
      c.throughput.pairs.map(x).join(' '),
      x(c.throughput.median),
      fmt(c.sharedPostgresMsPerRequest, 3),
    ]),
  );
  return `Side by side (two service processes of one worker, two tenants, loaded at the same time with half the connections each; the experiment runs on one side, the sides swap every round)\n${rounds}\n\n${estimates}`;
}

function engineTable(engine: EngineResult): string {
  return [
    formatTable(
      ['book', 'rules', 'evals/s (1 core, CPU time)', 'evals/s (wall)', 'µs/eval', 'ns/rule', 'evals/s incl. JSON', 'receipt KB', 'compile ms'],
      engine.cases.map((c) => [
        c.book,
        c.rules,
        fmt(c.evaluationsPerSecond, 0),
        fmt(c.evaluationsPerWallSecond, 0),
        fmt(c.microsPerEvaluation, 2),
        fmt(c.nanosPerRule, 0),
        fmt(c.withJsonPerSecond, 0),
        fmt(c.receiptBytes / 1024, 1),
        fmt(c.compileMs, 1),
      ]),
    ),
    `linear fit over generated books: ${fmt(engine.fit.nanosPerRule, 0)} ns per rule + ${fmt(engine.fit.fixedMicros, 1)} µs fixed, r² = ${engine.fit.r2.toFixed(4)}`,
  ].join('\n');
}

function webhookTable(w: WebhookResult): string {
  return formatTable(
    ['case', 'events', 'deliveries', 'deliveries/s', 'steady/s', 'round trip ms', 'delay p50 ms', 'delay p99 ms', 'delay max ms', 'peak RSS MB', 'bad signatures', 'duplicates', 'started out of order', 'arrived out of order', 'lost'],
    [
      ['idle, one event at a time', w.idle.events, w.idle.events, '', '', '', fmt(w.idle.delayMs.p50, 0), fmt(w.idle.delayMs.p99, 0), fmt(w.idle.delayMs.max, 0), '', '', '', '', '', ''],
      ...w.bursts.map((b) => [
        b.name,
        b.events,
        b.deliveries,
        fmt(b.deliveriesPerSecond, 0),
        fmt(b.steadyDeliveriesPerSecond, 0),
        fmt(b.roundTripMs, 1),
        fmt(b.delayMs.p50, 0),
        fmt(b.delayMs.p99, 0),
        fmt(b.delayMs.max, 0),
        mb(b.usage.service),
        b.badSignatures,
        b.duplicates,
        b.startInversions,
        b.inversions,
        b.lost,
      ]),
      ...w.slow.map((c) => [c.name, c.events, c.events - c.lost, fmt(c.deliveriesPerSecond, 0), '', fmt(c.receiverMs, 0), fmt(c.delayMs.p50, 0), fmt(c.delayMs.p99, 0), fmt(c.delayMs.max, 0), '', '', '', c.startInversions, '', c.lost]),
    ],
  );
}

function searchTable(s: SearchResult): string {
  return formatTable(
    ['case', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'PG planning ms/request', 'non-2xx'],
    s.cases.map((c) => [
      c.name,
      c.result.requests,
      fmt(c.result.requestsPerSecond, 0),
      fmt(c.result.latency.p50, 1),
      fmt(c.result.latency.p95, 1),
      fmt(c.result.latency.p99, 1),
      fmt(c.planMsPerRequest, 2),
      c.result.non2xx,
    ]),
  );
}

/** What an experiment adds per request: CPU µs per request with minus without, by where and by function. */
function profileDifference(without: ProfileSummary & { requests: number }, withExperiment: ProfileSummary & { requests: number }): string {
  const perRequest = (ms: number, requests: number) => (ms * 1000) / Math.max(1, requests);
  const rows = <T extends { ms: number }>(a: T[], b: T[], key: (x: T) => string) =>
    [...new Set([...a, ...b].map(key))]
      .map((k) => {
        const before = perRequest(a.find((x) => key(x) === k)?.ms ?? 0, without.requests);
        const after = perRequest(b.find((x) => key(x) === k)?.ms ?? 0, withExperiment.requests);
        return [k, before, after, after - before] as const;
      })
      .sort((x, y) => Math.abs(y[3]) - Math.abs(x[3]));
  const us = (value: number) => value.toFixed(1);
  const table = (label: string, list: ReturnType<typeof rows>) =>
    formatTable([label, 'without µs/req', 'with µs/req', 'difference'], list.map(([k, before, after, delta]) => [k, us(before), us(after), us(delta)]));
  const [before, after] = [perRequest(without.totalMs, without.requests), perRequest(withExperiment.totalMs, withExperiment.requests)];
  return (
    `\nWith an experiment running (POST /v1/public_quotes @ 32, ${withExperiment.requests.toLocaleString('en-US')} requests against ${without.requests.toLocaleString('en-US')} without): ` +
    `${us(after)} against ${us(before)} µs busy CPU per request (${fmt(after / before, 3)}x)\n` +
    `${table('where', rows(without.byCategory, withExperiment.byCategory, (c) => c.name).slice(0, 12))}\n\n` +
    table('function', rows(without.byFunction, withExperiment.byFunction, (f) => `${f.name} ${f.location}`).slice(0, 25))
  );
}

function sqlTable(profiles: SqlProfile[]): string {
  return formatTable(
    ['request', 'SQL statements/request', 'DB execution ms/request'],
    profiles.map((p) => [p.name, fmt(p.statementsPerRequest, 2), fmt(p.dbMsPerRequest, 3)]),
  );
}

function impactTable(i: ImpactBenchResult): string {
  return formatTable(
    ['run', 'HTTP wall ms', 'in-process wall ms', 'in-process CPU ms (one thread)'],
    i.http.map((run, n) => [String(n + 1), fmt(run.wallMs, 0), fmt(i.inProcess[n]?.wallMs ?? null, 0), fmt(i.inProcess[n]?.cpuMs ?? null, 0)]),
  );
}

function scaleReport(r: ScaleResult): string {
  const mbOf = (bytes: number) => fmt(bytes / 2 ** 20, 0);
  const head = r.sizes.map((s) => `${fmt(s.rows / 1_000_000, 1)}M`);
  const reads = formatTable(
    ['read (one connection, 5 warm-up runs then the measured ones)', ...head.flatMap((h) => [`${h} p50 ms`, `${h} p95 ms`, `${h} max ms`, `${h} PG plan + exec ms`]), ...(r.sizes.length > 1 ? ['p95 ratio'] : []), 'rows'],
    r.sizes[0].reads.map((read, i) => {
      const bySize = r.sizes.map((s) => s.reads[i]);
      return [
        read.name,
        ...bySize.flatMap((at) => [fmt(at.ms.p50, 2), fmt(at.ms.p95, 2), fmt(at.ms.max, 2), `${fmt(at.planMsPerRun, 2)} + ${fmt(at.execMsPerRun, 2)}`]),
        ...(r.sizes.length > 1 ? [x(bySize[bySize.length - 1].ms.p95 / bySize[0].ms.p95)] : []),
        read.rowsReturned,
      ];
    }),
  );
  const sizes = formatTable(
    ['size', 'rows', 'rows/day', 'bodies', 'fill s', 'vacuum + analyze s', 'rows MB', 'MB per M rows', 'bodies MB', 'bytes/body', 'rollup rows', 'rollup MB', 'database MB', 'minute job p50/p95 ms', 'drop a day ms', 'writer rows/s x1 / x2', 'rows per PG CPU s x1 / x2', 'batch p95 ms x1 / x2', 'load start', 'load end'],
    r.sizes.map((s, i) => [
      head[i],
      s.rows.toLocaleString('en-US'),
      s.rowsPerDay.toLocaleString('en-US'),
      s.bodies.toLocaleString('en-US'),
      fmt(s.fillSeconds, 0),
      `${fmt(s.vacuumSeconds, 0)} + ${fmt(s.analyzeSeconds, 0)}`,
      mbOf(s.disk.rowsBytes),
      fmt(s.disk.rowsBytes / 2 ** 20 / (s.rows / 1_000_000), 0),
      mbOf(s.disk.bodiesBytes),
      s.bodies ? fmt(s.disk.bodiesBytes / s.bodies, 0) : '',
      s.rollup.rows.toLocaleString('en-US'),
      mbOf(s.disk.rollupBytes),
      mbOf(s.disk.databaseBytes),
      `${fmt(s.minuteJobMs.p50, 2)} / ${fmt(s.minuteJobMs.p95, 2)}`,
      s.dropMs.map((ms) => fmt(ms, 1)).join(', '),
      s.writers.map((w) => fmt(w.rowsPerSecond, 0)).join(' / '),
      s.writers.map((w) => fmt(w.rowsPerPostgresCpuSecond, 0)).join(' / '),
      s.writers.map((w) => fmt(w.batchMs.p95, 1)).join(' / '),
      s.loadStart,
      s.loadEnd,
    ]),
  );
  const q = r.quotes;
  const quotes = formatTable(
    ['table (after VACUUM)', 'rows added', 'bytes added', 'bytes per quote', 'MB per million quotes'],
    [
      ...q.tables.map((t) => [t.table, t.rows || '', t.bytes.toLocaleString('en-US'), fmt(t.bytes / q.quotes, 0), fmt(t.bytes / q.quotes / 2 ** 20 * 1_000_000, 0)]),
      ['all', '', q.tables.reduce((a, t) => a + t.bytes, 0).toLocaleString('en-US'), fmt(q.tables.reduce((a, t) => a + t.bytes, 0) / q.quotes, 0), fmt(q.tables.reduce((a, t) => a + t.bytes, 0) / q.quotes / 2 ** 20 * 1_000_000, 0)],
    ],
  );
  return [
    `\nThe request log at scale (${r.days} days; bodies for the failures of the last 30 days only; reads are the product's verbs in this process)\n${reads}`,
    `\n${sizes}`,
    `\nDisk per quote (${q.quotes.toLocaleString('en-US')} quotes through createPublicQuote in ${fmt(q.seconds, 1)} s, ${q.endpoints} webhook endpoint; deliveries never sent)\n${quotes}`,
  ].join('\n');
}

function experimentScaleReport(e: ExperimentScaleResult): string {
  const mbOf = (bytes: number) => fmt(bytes / 2 ** 20, 0);
  const millions = fmt(e.quotes / 1_000_000, 1);
  const sizes = formatTable(
    ['quotes', 'days', 'tail after the mark', 'acceptances', 'won leads', 'fill s', 'vacuum + analyze s', 'rollup: quotes s', 'rollup: acceptances s', 'rollup rows', 'quote_intents MB', 'quote_receipts MB', 'quote_acceptances MB', 'database MB'],
    [[
      e.quotes.toLocaleString('en-US'),
      e.days,
      e.tail.toLocaleString('en-US'),
      e.acceptances.toLocaleString('en-US'),
      e.wonLeads.toLocaleString('en-US'),
      fmt(e.fillSeconds, 0),
      fmt(e.vacuumSeconds, 0),
      fmt(e.rollup.quotesSeconds, 1),
      fmt(e.rollup.acceptancesSeconds, 1),
      e.rollup.rows.toLocaleString('en-US'),
      mbOf(e.disk.intentsBytes),
      mbOf(e.disk.receiptsBytes),
      mbOf(e.disk.acceptancesBytes),
      mbOf(e.disk.databaseBytes),
    ]],
  );
  const read = formatTable(
    ['read (one connection, 5 warm-up runs then the measured ones)', 'runs', 'p50 ms', 'p95 ms', 'max ms', 'statements/run', 'PG plan + exec ms'],
    [['requireBook + experimentResults', e.read.ms.count, fmt(e.read.ms.p50, 2), fmt(e.read.ms.p95, 2), fmt(e.read.ms.max, 2), fmt(e.read.statementsPerRun, 1), `${fmt(e.read.planMsPerRun, 2)} + ${fmt(e.read.execMsPerRun, 2)}`]],
  );
  const portal = formatTable(
    [`the portal's reads on load, the same business (quote rollup caught up in ${fmt(e.quoteRollupSeconds, 1)} s)`, 'runs', 'p50 ms', 'p95 ms', 'max ms'],
    e.portalReads.map((p) => [p.name, p.ms.count, fmt(p.ms.p50, 2), fmt(p.ms.p95, 2), fmt(p.ms.max, 2)]),
  );
  const slowest = e.portalReads.flatMap((p) => [`  ${p.name}: its slowest statements (PostgreSQL's mean planning + execution ms)`, ...p.statements.map((st) => `    ${fmt(st.meanMs, 2)}  ${st.text}`)]);
  const arms = formatTable(
    ['arm', 'quotes', 'acceptances', 'won leads', 'average price', 'acceptance rate'],
    e.arms.map((a) => [a.name, a.quotes.toLocaleString('en-US'), a.acceptances.toLocaleString('en-US'), a.wonLeads.toLocaleString('en-US'), fmt(a.averagePriceMinor, 0), a.acceptanceRate === null ? '' : `${(a.acceptanceRate * 100).toFixed(2)}%`]),
  );
  // The plan's top: each branch of the UNION (the rollup's rows, the quotes and acceptances past the marks, the won leads) and the times.
  const branches = e.plan.filter((line) => /^EXPLAIN|Append|on experiment_arm_daily|Subquery Scan|^(Planning|Execution) Time/.test(line.trim())).map((line) => `  ${line.trimEnd()}`);
  return [
    `\nExperiment results at ${millions}M quotes (hosted-page quotes copied from real ones, the rollup built by the minute job's functions, a tail after its mark; the read is the product's verbs in this process)\n${sizes}`,
    `\n${read}`,
    `\n${portal}\n${slowest.join('\n')}`,
    `\n${arms}`,
    `The arm totals' statement as sent, explained once after the runs (the whole plan is in the log and in --json):\n${branches.join('\n')}`,
  ].join('\n');
}

type Target = { target: string; measured: string; pass: boolean | null };

function targets(r: Partial<Results>): Target[] {
  const out: Target[] = [];
  // Issue 28's targets (docs/performance.md): every /v1 route through the router.
  const at32 = (group: string) => r.http?.find((c) => c.group === group && c.connections === 32);
  const ratioTarget = (group: string, label: string, throughput: number, p99: number | null) => {
    const c = at32(group);
    if (!c?.vsReference) return;
    out.push({ target: `${label} @32: throughput >= ${throughput}x reference`, measured: x(c.vsReference.throughput), pass: (c.vsReference.throughput ?? 0) >= throughput });
    if (p99 !== null) out.push({ target: `${label} @32: p99 <= ${p99}x reference`, measured: x(c.vsReference.p99), pass: (c.vsReference.p99 ?? Infinity) <= p99 });
  };
  ratioTarget('quotes', 'POST /v1/quotes', 0.65, 2.5);
  const q32 = at32('quotes');
  if (q32?.vsReference) {
    const estimate = q32.vsReference.cpu ? 1 / q32.vsReference.cpu : null;
    out.push({
      target: '  (same, CPU-bound estimate: reference CPU/req ÷ ours, server + PostgreSQL)',
      measured: x(estimate),
      pass: estimate === null ? null : estimate >= 0.65,
    });
  }
  ratioTarget('public_quotes', 'POST /v1/public_quotes', 0.5, null);
  // Issue 43: at the limit at every load, and for reads against the reference's own reads.
  const at = (group: string, connections: number) => r.http?.find((c) => c.group === group && c.connections === connections);
  const bound = (group: string, connections: number, label: string, throughput: number, p99: number | null) => {
    const c = at(group, connections);
    if (!c?.vsReference) return;
    out.push({ target: `issue 43: ${label} @${connections}: req/s >= ${throughput}x ${c.vsReference.reference}`, measured: x(c.vsReference.throughput), pass: (c.vsReference.throughput ?? 0) >= throughput });
    if (p99 !== null) out.push({ target: `issue 43: ${label} @${connections}: p99 <= ${p99}x`, measured: x(c.vsReference.p99), pass: (c.vsReference.p99 ?? Infinity) <= p99 });
  };
  bound('quotes', 8, 'POST /v1/quotes', 0.8, 1.5);
  bound('quotes', 32, 'POST /v1/quotes', 0.8, 1.5);
  bound('public_quotes', 8, 'POST /v1/public_quotes', 0.6, null);
  bound('public_quotes', 32, 'POST /v1/public_quotes', 0.6, null);
  bound('trace', 32, 'GET /v1/quote-intents/{id}/trace', 0.6, 2);
  bound('search', 32, 'GET /v1/request-logs', 0.6, 2);
  // Issue 41 §5: with an experiment running, the quote routes cost within 5% of their cost without
  // one: two processes measured at the same time, swapping roles each round (runSideBySide).
  for (const c of r.experiments?.sideBySide ?? []) {
    const label = c.route === 'quotes' ? 'POST /v1/quotes' : 'POST /v1/public_quotes';
    out.push({
      target: `experiment running: ${label} @${c.connections} side by side, req/s >= 0.95x (median of swapped pairs)`,
      measured: `${x(c.throughput.median)} (pairs ${c.throughput.pairs.map(x).join(', ')})`,
      pass: c.throughput.median === null ? null : c.throughput.median >= 0.95,
    });
    out.push({
      target: '  (same, CPU per request, server + its PostgreSQL backends: <= 1.05x)',
      measured: `${x(c.cpu.median)} (pairs ${c.cpu.pairs.map(x).join(', ')}; pooled ${x(c.pooledCpu)})`,
      pass: c.cpu.median === null ? null : c.cpu.median <= 1.05,
    });
  }
  ratioTarget('simulation', 'POST /v1/accounts/{id}/quote-simulations', 0.5, 3);
  if (r.receipts) {
    const slowest = Math.min(...r.receipts.audits.map((run) => run.perSecond));
    out.push({
      target: `audit-receipts: >= 5,000 receipts/s (signature + recomputation, demo book, every run)`,
      measured: r.receipts.audits.map((run) => fmt(run.perSecond, 0)).join(', '),
      pass: slowest >= 5_000 && r.receipts.audits.every((run) => run.failures === 0),
    });
  }
  const e100 = r.engine?.cases.find((c) => c.rules === 100 && c.book.startsWith('generated'));
  if (e100 && r.engine) {
    out.push({ target: 'engine, 100-rule book: >= 100,000 evaluations/s on one core', measured: fmt(e100.evaluationsPerSecond, 0), pass: e100.evaluationsPerSecond >= 100_000 });
    const gen = r.engine.cases.filter((c) => c.book.startsWith('generated'));
    const worst = Math.max(...gen.map((c) => c.nanosPerRule));
    const best = Math.min(...gen.filter((c) => c.rules >= 100).map((c) => c.nanosPerRule));
    out.push({
      target: 'engine: cost linear in rules (ns/rule within 2x from 100 to 10,000 rules; fit r² >= 0.98)',
      measured: `ns/rule ${fmt(best, 0)}–${fmt(Math.max(...gen.filter((c) => c.rules >= 100).map((c) => c.nanosPerRule)), 0)}, r² ${r.engine.fit.r2.toFixed(3)}`,
      pass: Math.max(...gen.filter((c) => c.rules >= 100).map((c) => c.nanosPerRule)) <= 2 * best && r.engine.fit.r2 >= 0.98 && worst > 0,
    });
  }
  if (r.webhooks) {
    out.push({ target: 'idle service delivers within 1 s of the event (p99)', measured: `${fmt(r.webhooks.idle.delayMs.p99, 0)} ms`, pass: r.webhooks.idle.delayMs.p99 <= 1000 });
    const fan = r.webhooks.bursts.find((b) => b.endpoints === FAN_ENDPOINTS && !b.kill);
    const single = r.webhooks.bursts.find((b) => b.endpoints === 1);
    const killed = r.webhooks.bursts.find((b) => b.kill);
    if (fan) {
      out.push({ target: `>= 300 deliveries/s across ${FAN_ENDPOINTS} endpoints`, measured: `${fmt(fan.deliveriesPerSecond, 0)}/s`, pass: fan.deliveriesPerSecond >= 300 });
    }
    if (single) {
      out.push({ target: 'one endpoint, a fast receiver: >= 300 deliveries/s', measured: `${fmt(single.steadyDeliveriesPerSecond, 0)}/s steady; round trip ${fmt(single.roundTripMs, 1)} ms`, pass: single.steadyDeliveriesPerSecond >= 300 });
    }
    const slow200 = r.webhooks.slow.find((c) => c.receiverMs === 200);
    if (slow200) {
      out.push({
        target: 'one endpoint, a receiver answering in 200 ms: >= 100 events/s, first attempts started in outbox order',
        measured: `${fmt(slow200.deliveriesPerSecond, 0)}/s, ${slow200.startInversions} started out of order, ${slow200.lost} lost`,
        pass: slow200.deliveriesPerSecond >= 100 && slow200.startInversions === 0 && slow200.lost === 0,
      });
    }
    const slow2s = r.webhooks.slow.find((c) => c.receiverMs === 2_000);
    if (slow2s) {
      // Drained: no event waited much longer than one answer (a backlog would grow the delay to tens of seconds).
      out.push({
        target: `a receiver answering in 2 s drains a stream of ${slow2s.offeredPerSecond}/s (every delay < 5 s)`,
        measured: `delay p50 ${fmt(slow2s.delayMs.p50, 0)} ms, max ${fmt(slow2s.delayMs.max, 0)} ms, ${slow2s.startInversions} started out of order, ${slow2s.lost} lost`,
        pass: slow2s.delayMs.max < 5_000 && slow2s.startInversions === 0 && slow2s.lost === 0,
      });
    }
    const clean = r.webhooks.bursts.filter((b) => !b.kill);
    out.push({
      target: 'bursts without crashes: 0 duplicates, 0 bad signatures, 0 first attempts started out of order, 0 lost',
      measured: clean.map((b) => `${b.duplicates}/${b.badSignatures}/${b.startInversions}/${b.lost}`).join(', '),
      pass: clean.every((b) => b.duplicates === 0 && b.badSignatures === 0 && b.startInversions === 0 && b.lost === 0),
    });
    if (killed?.kill) {
      // At most a window of sends per endpoint is in flight (or answered and not yet recorded) when the process dies.
      const inFlight = FAN_ENDPOINTS * webhookWindow().size;
      const delays = killed.kill.duplicateDelaysMs;
      out.push({
        target: `kill -9 of a service process mid-burst: 0 lost; duplicates only for sends in flight (<= ${FAN_ENDPOINTS} endpoints × window ${webhookWindow().size})`,
        measured: `${killed.lost} lost, ${killed.duplicates} duplicates (retried ${delays.length ? `${fmt(Math.min(...delays) / 1000, 1)}–${fmt(Math.max(...delays) / 1000, 1)} s` : '—'} after the kill), ${killed.badSignatures} bad signatures`,
        pass: killed.lost === 0 && killed.duplicates <= inFlight && killed.badSignatures === 0,
      });
    }
  }
  if (r.search) {
    const logs = r.search.cases.filter((c) => c.name.startsWith('request-logs'));
    const worst = logs.reduce((a, c) => (c.result.latency.p95 > a.result.latency.p95 ? c : a), logs[0]);
    out.push({ target: `request-log search p95 < 100 ms at ${r.search.rows.toLocaleString('en-US')} rows (worst shape)`, measured: `${fmt(worst.result.latency.p95, 1)} ms (${worst.name})`, pass: worst.result.latency.p95 < 100 });
    const unbounded = r.search.cases.find((c) => c.name === 'request-logs: no filter');
    if (unbounded) {
      out.push({
        target: 'a request-log search without a time window plans in < 2 ms at 365 days of partitions (first page, PostgreSQL planning)',
        measured: `${fmt(unbounded.planMsPerRequest, 2)} ms a request`,
        pass: unbounded.planMsPerRequest < 2,
      });
    }
    const calls = r.search.apiCalls7Days;
    out.push({
      target: `the Overview's API calls of 7 days < 50 ms (${calls.rows.toLocaleString('en-US')} rows counted; every run)`,
      measured: `${fmt(Math.max(...calls.fromRollupMs), 1)} ms at most from the rollup (from the rows: ${fmt(Math.min(...calls.fromRowsMs), 0)}–${fmt(Math.max(...calls.fromRowsMs), 0)} ms)`,
      pass: Math.max(...calls.fromRollupMs) < 50,
    });
    const perDay = r.search.quotesPerDay;
    out.push({
      target: `the Overview's quotes per day of 14 days < 50 ms (${perDay.quotes.toLocaleString('en-US')} quotes counted; every run)`,
      measured: `${fmt(Math.max(...perDay.fromRollupMs), 1)} ms at most from the rollup (from the quotes: ${fmt(Math.min(...perDay.fromRowsMs), 0)}–${fmt(Math.max(...perDay.fromRowsMs), 0)} ms)`,
      pass: Math.max(...perDay.fromRollupMs) < 50,
    });
  }
  if (r.scale) {
    // Issue 31 §5: the curve is flat (each read's p95 at the larger size within 1.5x of the smaller), the Overview < 50 ms at both.
    const [small, large] = [r.scale.sizes[0], r.scale.sizes[r.scale.sizes.length - 1]];
    const millions = (s: ScaleSize) => `${fmt(s.rows / 1_000_000, 1)}M`;
    if (large !== small) {
      for (const read of large.reads) {
        const before = small.reads.find((b) => b.name === read.name);
        if (!before) continue;
        const grown = read.ms.p95 / before.ms.p95;
        out.push({
          target: `scale: ${read.name}: p95 at ${millions(large)} within 1.5x of ${millions(small)}`,
          measured: `${fmt(before.ms.p95, 2)} → ${fmt(read.ms.p95, 2)} ms (${grown.toFixed(2)}x)`,
          pass: grown <= 1.5,
        });
      }
    }
    for (const size of r.scale.sizes) {
      const overview = size.reads.find((read) => read.name.startsWith('Overview'));
      if (overview) out.push({ target: `scale: the Overview's API calls of 7 days at ${millions(size)}: p95 < 50 ms`, measured: `p95 ${fmt(overview.ms.p95, 2)} ms, max ${fmt(overview.ms.max, 2)} ms`, pass: overview.ms.p95 < 50 });
      out.push({ target: `scale: the hourly rollup equals the rows at ${millions(size)}`, measured: `${size.rollup.requests.toLocaleString('en-US')} counted, ${size.rows.toLocaleString('en-US')} rows`, pass: size.rollup.requests === size.rows });
    }
  }
  if (r.experimentScale) {
    // Issue 41 §3: results of an experiment with 10M quotes within 50 ms p95.
    const e = r.experimentScale;
    const millions = `${fmt(e.quotes / 1_000_000, 1)}M`;
    out.push({ target: `scale: experiment results at ${millions} quotes: p95 < 50 ms`, measured: `p50 ${fmt(e.read.ms.p50, 2)} ms, p95 ${fmt(e.read.ms.p95, 2)} ms, max ${fmt(e.read.ms.max, 2)} ms`, pass: e.read.ms.p95 < 50 });
    // Issue 43: the Overview, Quotes and Leads API calls the portal makes on load, under 20 ms p95 (at 10M quotes).
    for (const p of e.portalReads) {
      out.push({ target: `issue 43: ${p.name} at ${millions} quotes: p95 < 20 ms`, measured: `p50 ${fmt(p.ms.p50, 2)} ms, p95 ${fmt(p.ms.p95, 2)} ms`, pass: p.ms.p95 < 20 });
    }
    const c = e.check;
    out.push({
      target: `scale: experiment results at ${millions} count every quote, acceptance and won lead once (rollup + tail = the rows)`,
      measured: `${c.answerQuotes.toLocaleString('en-US')} / ${c.countedQuotes.toLocaleString('en-US')}; ${c.answerAcceptances.toLocaleString('en-US')} / ${c.countedAcceptances.toLocaleString('en-US')}; ${c.answerWon.toLocaleString('en-US')} / ${c.countedWon.toLocaleString('en-US')}`,
      pass: c.answerQuotes === c.countedQuotes && c.answerAcceptances === c.countedAcceptances && c.answerWon === c.countedWon,
    });
  }
  if (r.impact) {
    const worst = Math.max(...r.impact.http.map((run) => run.wallMs));
    out.push({
      target: `impact run: ${r.impact.distinctRequests.toLocaleString('en-US')} distinct requests, ${r.impact.rules}-rule book, < 2 s (every HTTP run)`,
      measured: r.impact.http.map((run) => `${fmt(run.wallMs / 1000, 2)} s`).join(', '),
      pass: worst < 2000,
    });
  }
  const rss = [
    ...(r.http ?? []).filter((c) => c.group !== 'reference').map((c) => c.usage.service?.peakProcessRssMb ?? 0),
    ...(r.experiments?.cases ?? []).map((c) => c.usage.service?.peakProcessRssMb ?? 0),
    ...(r.webhooks?.bursts ?? []).map((b) => b.usage.service?.peakProcessRssMb ?? 0),
  ];
  // Before every /v1 route went through the router: 327–349 MB in the full runs of 27 November.
  if (rss.length) out.push({ target: 'RSS per service process under load < 327 MB', measured: `${fmt(Math.max(...rss), 0)} MB`, pass: Math.max(...rss) < 327 });
  return out;
}

type Results = {
  startedAt: string;
  finishedAt: string;
  quick: boolean;
  settings: typeof SETTINGS;
  machine: Record<string, unknown>;
  http?: HttpCase[];
  experiments?: ExperimentCostResult;
  engine?: EngineResult;
  webhooks?: WebhookResult;
  search?: SearchResult;
  sql?: { profiles: SqlProfile[]; quoteStatementLog: string[] };
  impact?: ImpactBenchResult;
  receipts?: ReceiptBenchResult;
  scale?: ScaleResult;
  experimentScale?: ExperimentScaleResult;
  profile?: ProfileResult;
  builds?: BuildsComparison[];
  targets: Target[];
  errors: Record<string, string>;
};

function buildsTable(comparisons: BuildsComparison[]): string {
  return formatTable(
    ['route', 'conns', 'CPU/req per round', 'req/s per round', 'CPU/req median', 'req/s median', 'CPU ms/req (this, other)', 'non-2xx (this, other)'],
    comparisons.map((c) => [
      ROUTE_LABEL[c.route],
      c.connections,
      c.rounds.map((r) => x(r.cpu)).join(' '),
      c.rounds.map((r) => x(r.throughput)).join(' '),
      x(c.cpu),
      x(c.throughput),
      `${fmt(median(c.rounds.map((r) => r.ours.cpuMsPerRequest)), 2)}, ${fmt(median(c.rounds.map((r) => r.theirs.cpuMsPerRequest)), 2)}`,
      `${c.rounds.reduce((sum, r) => sum + r.ours.non2xx, 0)}, ${c.rounds.reduce((sum, r) => sum + r.theirs.non2xx, 0)}`,
    ]),
  );
}

function report(r: Results): string {
  const parts: string[] = [];
  parts.push(`Machine: ${r.machine.cpus} x ${r.machine.cpuModel}, ${r.machine.memoryGb} GB; node ${r.machine.node}; ${r.machine.postgres}`);
  parts.push(`Load average at start ${r.machine.loadStart}, at end ${r.machine.loadEnd} (other work on the machine shows here).`);
  parts.push(
    `Runs: warm-up ${SETTINGS.warmupSec} s, measured ${SETTINGS.durationSec} s per case${r.quick ? ' (--quick)' : ''}` +
      `${SETTINGS.pooledRounds > 1 ? `; at 8 and 32 connections ${SETTINGS.pooledRounds} interleaved rounds, pooled` : ''}.`,
  );
  if (r.http) parts.push(`\nHTTP (autocannon in its own process; latency over every response)\n${httpTable(r.http)}`);
  if (r.http?.some((c) => c.rounds)) parts.push(`\nRounds at 8 and 32 connections (each round: reference, then ours; pooled above)\n${roundsTable(r.http)}`);
  if (r.http) parts.push(`\nRoute families against their reference (docs/performance.md keeps the newest: --write-docs)\n${routeFamilyTable(r.http)}`);
  if (r.experiments) parts.push(experimentCostReport(r.experiments));
  if (r.builds) parts.push(`\nThis tree beside --against, loaded at once (ratios: this tree over the other, per round and their median)\n${buildsTable(r.builds)}`);
  if (r.engine) parts.push(`\nPricing engine alone (one thread)\n${engineTable(r.engine)}`);
  if (r.webhooks) parts.push(`\nWebhooks (in-process runner → local HTTPS receiver, signatures verified)\n${webhookTable(r.webhooks)}`);
  if (r.search) {
    parts.push(`\nRequest-log search and quote trace (${r.search.rows.toLocaleString('en-US')} request-log rows; 1 connection)\n${searchTable(r.search)}`);
    const calls = r.search.apiCalls7Days;
    parts.push(
      `\nThe Overview's API calls of 7 days (${calls.rows.toLocaleString('en-US')} rows of the business): from the rows ${calls.fromRowsMs.map((ms) => fmt(ms, 1)).join(', ')} ms; from the hourly rollup ${calls.fromRollupMs.map((ms) => fmt(ms, 1)).join(', ')} ms`,
    );
    const perDay = r.search.quotesPerDay;
    parts.push(
      `The Overview's quotes per day of 14 days (${perDay.quotes.toLocaleString('en-US')} Live quotes of the business): from the quotes ${perDay.fromRowsMs.map((ms) => fmt(ms, 1)).join(', ')} ms; from the hourly rollup ${perDay.fromRollupMs.map((ms) => fmt(ms, 1)).join(', ')} ms; the minute job counting them all once ${fmt(perDay.catchUpMs, 0)} ms, then its next run ${fmt(perDay.minuteRunMs, 1)} ms`,
    );
  }
  if (r.sql) {
    parts.push(`\nSQL per request (pg_stat_statements, idle background subtracted)\n${sqlTable(r.sql.profiles)}`);
    for (const profile of r.sql.profiles) {
      parts.push(
        `\nStatements of ${profile.name} (calls per request, mean execution ms, share of calls planned anew and mean planning ms)\n${profile.statements
          .slice(0, 6)
          .map((st) => `  ${st.perRequest.toFixed(2)}  ${st.meanMs.toFixed(3)} ms  planned ${(st.plannedShare * 100).toFixed(0)}% ${st.meanPlanMs.toFixed(3)} ms  ${st.query.slice(0, 120)}`)
          .join('\n')}`,
      );
    }
    parts.push(`\nPostgreSQL statement log of one POST /v1/quotes (log_statement = all; runner statements left out)\n${r.sql.quoteStatementLog.map((l) => `  ${l}`).join('\n')}`);
  }
  if (r.profile) {
    parts.push(
      `\nCPU profile of the service (one process) under ${PROFILED_ROUTE_LABELS[r.profile.route]} @ ${r.profile.connections}, measured run only (${fmt(r.profile.totalMs / Math.max(1, r.profile.requests), 2)} ms busy CPU per request; self time)\n${formatTable(
        ['where', 'self %'],
        r.profile.byCategory.slice(0, 14).map((c) => [c.name, `${c.percent.toFixed(1)}%`]),
      )}\n\n${formatTable(['function', 'location', 'self %'], r.profile.byFunction.slice(0, 20).map((f) => [f.name, f.location, `${f.percent.toFixed(1)}%`]))}`,
    );
    if (r.profile.withExperiment) parts.push(profileDifference(r.profile, r.profile.withExperiment));
  }
  if (r.receipts) {
    const g = r.receipts.signing;
    parts.push(
      `\nSigned receipts (${r.receipts.receipts.toLocaleString('en-US')} demo quotes, seeded in ${fmt(r.receipts.seedSeconds, 1)} s)\n` +
        `signing one receipt (${g.receiptBytes} bytes of canonical JSON): canonical JSON ${fmt(g.canonicalUs, 1)} µs + Ed25519 ${fmt(g.ed25519Us, 1)} µs = ${fmt(g.totalUs, 1)} µs (JSON.stringify alone: ${fmt(g.jsonStringifyUs, 1)} µs)\n` +
        formatTable(
          ['audit run', 'wall ms', 'receipts/s', 'CPU ms', 'verified', 'failures'],
          r.receipts.audits.map((run, i) => [String(i + 1), fmt(run.wallMs, 0), fmt(run.perSecond, 0), fmt(run.cpuMs, 0), String(run.verified), String(run.failures)]),
        ),
    );
  }
  if (r.scale) parts.push(scaleReport(r.scale));
  if (r.experimentScale) parts.push(experimentScaleReport(r.experimentScale));
  if (r.impact) parts.push(`\nImpact run (${r.impact.distinctRequests.toLocaleString('en-US')} distinct requests, ${r.impact.quotes.toLocaleString('en-US')} quotes, ${r.impact.rules}-rule book, ${r.impact.changedQuotes.toLocaleString('en-US')} quotes change; seeded in ${fmt(r.impact.seedSeconds, 1)} s)\n${impactTable(r.impact)}`);
  parts.push(`\nTargets\n${formatTable(['target', 'measured', 'result'], r.targets.map((t) => [t.target, t.measured, t.pass === null ? '' : t.pass ? 'pass' : 'FAIL']))}`);
  return parts.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const startedAt = new Date();
  const results: Results = {
    startedAt: startedAt.toISOString(),
    finishedAt: '',
    quick,
    settings: SETTINGS,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadStart: os.loadavg().map((l) => l.toFixed(2)).join(' '),
    },
    targets: [],
    errors: {},
  };

  const needsServers = named('builds') || wants('http') || wants('experiments') || wants('webhooks') || wants('search') || wants('sql') || wants('impact') || flag('--profile');
  if (needsServers) {
    log('build: ensureBuild (next build unless the last build is current)');
    ensureBuild(root);
  }
  if (wants('engine')) results.engine = await runEngineCases(quick);
  // Before the groups that share a database: its own, gone again before they start.
  if (named('scale')) await runScale(results);

  if (needsServers || wants('receipts')) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-bench-'));
    chmodSync(tmp, 0o755); // PostgreSQL runs as the `postgres` OS user when we are root
    const pgLog: string[] = [];
    const cleanups: (() => Promise<unknown>)[] = [];
    const cleanup = async () => {
      for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => log(`cleanup: ${String(e)}`));
      if (!flag('--keep')) rmSync(tmp, { recursive: true, force: true });
    };
    process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
    try {
      log(`database: fresh embedded PostgreSQL in ${tmp}`);
      const { database, admin, postmasterPid } = await startDatabase(tmp, pgLog);
      cleanups.push(() => database.stop(), () => admin.end());
      await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
      results.machine.postgres = (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0].v.split(' on ')[0];

      const db = createDb(database.url);
      cleanups.push(() => db.close());
      const webhookKey = randomBytes(32).toString('hex');
      process.env.SEALING_KEY = webhookKey; // createEndpoint seals secrets with it, as the service does
      process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = 'true'; // createEndpoint takes the loopback receiver, as the service does
      forgetSettings();
      log('provision: tenant, keys, businesses, accounts, webhook tenant (domain code)');
      const setup = await provision(db.prisma, { businesses: quick ? 300 : 600, accounts: quick ? 30 : 60 });
      if (wants('receipts')) {
        // Before the servers start: the audit is measured on an otherwise idle machine.
        try {
          results.receipts = await runReceiptCases(db.prisma, setup.tenant.businessId, quick, log);
        } catch (error) {
          log(`receipts failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          results.errors.receipts = error instanceof Error ? error.message : String(error);
        }
      }
      if (!needsServers) return finish(results);

      const certs = await writeTestCertificates(tmp);
      process.env.TEST_TLS_CERT = certs.certFile;
      process.env.TEST_TLS_KEY = certs.keyFile;

      // The reference: same database, a precomputed price from the real engine.
      const computation = evaluate(compileBook(bookArtifactSchema.parse(demoBookArtifact)), demoExample);
      if (computation.outcome !== 'succeeded') throw new Error('demo example does not price');
      const referenceConfig: ReferenceConfig = {
        workspaceId: setup.tenant.workspaceId,
        projectId: setup.tenant.projectId,
        environmentId: setup.tenant.environments.test,
        bookId: setup.tenant.bookId,
        bookVersionId: setup.tenant.versionId,
        businessId: setup.tenant.businessId,
        computation: JSON.stringify(computation.computation),
        totalMinor: computation.computation.totalMinor,
      };
      const referenceProcess = spawn(process.execPath, tsxArgs('bench/reference-server.ts'), {
        cwd: root,
        // The reference keeps its pool of 10 whatever the service is given.
        env: { ...process.env, DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10', PORT: '0', REFERENCE_CONFIG: JSON.stringify(referenceConfig) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      cleanups.push(() => stopChild(referenceProcess));
      const referenceUrl = `http://127.0.0.1:${await listeningPort(referenceProcess)}`;
      await waitForHttp(`${referenceUrl}/status`);

      const { service: next, env: nextEnv } = await startThrowawayService({ root, databaseUrl: database.url, webhookKey, caFile: certs.caFile, logFile: path.join(tmp, 'next.log') });
      const nextPort = next.port;
      log(`service: started on port ${nextPort}`);
      const ctx: Context = {
        tmp,
        db,
        admin,
        database,
        pgLog,
        postmasterPid,
        next,
        reference: { url: referenceUrl, process: referenceProcess },
        setup,
        nextEnv,
        nextPort,
        settings: SETTINGS,
      };
      cleanups.push(() => ctx.next.stop());

      const section = async (name: string, run: () => Promise<void>) => {
        try {
          await run();
        } catch (error) {
          log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          results.errors[name] = error instanceof Error ? error.message : String(error);
        }
      };
      if (wants('http')) await section('http', async () => void (results.http = await runHttpCases(ctx)));
      if (wants('experiments')) {
        // One run each way at 8 and 32 for the absolute figures; the targets read the side-by-side
        // rounds (8 rounds: 4 swapped pairs), at 32 unless --side-by-side names others.
        await section(
          'experiments',
          async () =>
            void (results.experiments = await runExperimentCostCases(ctx, {
              connections: [8, 32],
              rounds: () => 1,
              sideBySide: { connections: SIDE_BY_SIDE_CONNECTIONS, rounds: quick ? 2 : 8 },
            })),
        );
      }
      if (wants('webhooks')) {
        await section('webhooks', async () => {
          const receiver = await startReceiver();
          cleanups.push(() => receiver.stop());
          results.webhooks = await runWebhookCases(ctx, receiver);
        });
      }
      if (wants('search')) await section('search', async () => void (results.search = await runSearchCases(ctx)));
      if (wants('sql')) await section('sql', async () => void (results.sql = await runSqlCases(ctx)));
      if (wants('impact')) {
        await section('impact', async () => {
          const { tenant, person } = ctx.setup;
          results.impact = await runImpactCase(ctx.db.prisma, ctx.admin, tenant, person, ctx.next.url, log);
        });
      }
      if (named('builds')) {
        await section('builds', async () => {
          if (!AGAINST) throw new Error('the builds group needs --against DIR: the checkout to compare this tree with');
          results.builds = await runBuildsSideBySide(ctx, { against: AGAINST, connections: CONNECTIONS ?? [8], rounds: quick ? 4 : 8 });
        });
      }
      if (flag('--profile')) await section('profile', async () => void (results.profile = await runProfile(ctx, profiledRoute, CONNECTIONS?.[0])));
    } finally {
      await cleanup();
    }
  }

  return finish(results);
}

/** Group `scale`: the request log, then an experiment's results, each on a fresh database of its own (tens of GB), removed afterwards unless --keep. */
async function runScale(results: Results): Promise<void> {
  if (SCALE_SIZES.length) {
    await withScaleDatabase(results, 'scale', async (ctx) => void (results.scale = await runScaleCases(ctx, { sizes: SCALE_SIZES, readRuns: quick ? 40 : 200 })));
  }
  if (EXPERIMENT_QUOTES > 0) {
    await withScaleDatabase(results, 'scale-experiment', async (ctx) => {
      results.experimentScale = await runExperimentScale(ctx, { quotes: EXPERIMENT_QUOTES, tail: 2_000, readRuns: quick ? 40 : 200 });
    });
  }
}

async function withScaleDatabase(results: Results, name: string, run: (ctx: ScaleContext) => Promise<void>): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-bench-scale-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as the `postgres` OS user when we are root
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => log(`cleanup: ${String(e)}`));
    cleanups.length = 0;
    if (!flag('--keep')) rmSync(tmp, { recursive: true, force: true });
  };
  const onInterrupt = () => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', onInterrupt);
  try {
    log(`${name}: fresh embedded PostgreSQL in ${tmp}`);
    const { database, admin, postmasterPid } = await startDatabase(tmp, []);
    cleanups.push(() => database.stop(), () => admin.end());
    // Each read is timed as a first one: a sequential scan that stops at a LIMIT leaves its place
    // for the next to start from (synchronize_seqscans), which made a plan that reads the table
    // from its start until it has enough rows look fast run after run (the Overview's count of
    // prices running out: 6 ms in the bench, 3.5 s from the table's start; docs/performance.md).
    await admin.query('ALTER SYSTEM SET synchronize_seqscans = off');
    await admin.query('SELECT pg_reload_conf()');
    await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
    results.machine.postgres ??= (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0].v.split(' on ')[0];
    const db = createDb(database.url);
    cleanups.push(() => db.close());
    process.env.SEALING_KEY ??= randomBytes(32).toString('hex'); // the quotes' receipts and the endpoint's secret are sealed with it
    forgetSettings();
    await run({ admin, db, url: database.url, postmasterPid });
  } catch (error) {
    log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    results.errors[name] = error instanceof Error ? error.message : String(error);
  } finally {
    process.off('SIGINT', onInterrupt);
    await cleanup();
  }
}

/** Prints the report (and writes it with --json); true when no section failed. */
function finish(results: Results): boolean {
  results.machine.loadEnd = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  results.finishedAt = new Date().toISOString();
  results.targets = targets(results);
  console.log(report(results));
  if (flag('--json')) {
    const out = path.join(root, 'bench/results/latest.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(root, out)}`);
  }
  if (flag('--write-docs') && results.http) log(`wrote ${writeRouteFamilies(results.http, { finishedAt: results.finishedAt, loadStart: String(results.machine.loadStart), loadEnd: String(results.machine.loadEnd) })}`);
  for (const [name, message] of Object.entries(results.errors)) console.log(`\n${name} FAILED: ${message}`);
  return Object.keys(results.errors).length === 0;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);