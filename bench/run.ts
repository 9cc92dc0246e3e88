// `npm run bench [-- --json] [--quick] [--profile] [--only http,engine,webhooks,search,sql,impact]`
//
// The benchmark suite: a fresh embedded PostgreSQL in a temp dir, migrations, a tenant made by
// domain code, a production build served by `next start`, and beside it the reference server
// (bench/reference-server.ts: node:http + pg, the least work a quote creation can do), both
// loaded by autocannon from a separate process (bench/load.ts), in the same run, on the same
// database. Prints tables; `--json` also writes bench/results/latest.json. See docs/performance.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { demoBookArtifact, demoExample } from '../lib/books/demo-book';
import { createDb } from '../lib/db/client';
import { findFreePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { bookArtifactSchema, compileBook, evaluate } from '../lib/pricing';
import { startReceiver, type Receiver } from '../lib/testing/https-receiver';
import { LEASE_MS } from '../lib/webhooks/deliver-due-webhooks';
import { childProcesses, lastSenderTo } from '../lib/testing/processes';
import { createEndpoint } from '../lib/webhooks/create-endpoint';
import { verifyWebhookSignature } from '../lib/webhooks/signature';
import { ensureBuild, startNextServer, type RunningServer } from '../scripts/support/next-server';
import { writeTestCertificates } from '../scripts/support/test-certificates';
import type { EngineResult } from './engine';
import { runImpactCase, type ImpactBenchResult } from './impact';
import type { LoadResult, LoadSpec } from './load';
import { startSampler, type TreeUsage } from './procfs';
import { summarizeProfiles, type ProfileSummary } from './profile-summary';
import { provision, type Provisioned } from './provision';
import type { ReferenceConfig } from './reference-server';
import { fmt, formatTable, poolRuns, ratio, summarize, type LatencySummary } from './stats';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const quick = flag('--quick');
const only = (() => {
  const i = args.indexOf('--only');
  return i >= 0 ? new Set(args[i + 1].split(',')) : null;
})();
const wants = (group: string) => !only || only.has(group);

const SETTINGS = quick
  ? { warmupSec: 2, durationSec: 3, connections: [1, 8, 32], roundsAt32: 1, searchRequests: 40, idleEvents: 5, burstEvents: 400, logRows: 1_000_000, sqlRequests: 50 }
  : { warmupSec: 5, durationSec: 10, connections: [1, 8, 32], roundsAt32: 3, searchRequests: 200, idleEvents: 12, burstEvents: 2_000, logRows: 1_000_000, sqlRequests: 200 };

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Usage = Record<string, TreeUsage>;

export type HttpCase = {
  name: string;
  group: 'reference' | 'public_quotes' | 'quotes' | 'replay' | 'simulation';
  connections: number;
  result: LoadResult;
  usage: Usage;
  /** Outbox events not yet fanned out when the case ended (work the runner still owes). */
  outboxBacklog: number;
  /** When the case was measured in interleaved rounds and pooled: each round's own figures. */
  rounds?: { requestsPerSecond: number; p50: number; p99: number }[];
  vsReference?: {
    throughput: number | null;
    p99: number | null;
    /**
     * CPU per request of the server and PostgreSQL together, ours over the reference's: less
     * sensitive to other work on the machine than throughput. 1 / cpu estimates the throughput
     * ratio when both are CPU-bound on the same cores.
     */
    cpu: number | null;
    reference: string;
  };
};

type Context = {
  tmp: string;
  db: ReturnType<typeof createDb>;
  admin: pg.Pool;
  database: EmbeddedPostgresHandle;
  pgLog: string[];
  postmasterPid: () => number;
  next: RunningServer;
  reference: { url: string; process: ChildProcess };
  setup: Provisioned;
  nextEnv: Record<string, string>;
  nextPort: number;
};

// ---------------------------------------------------------------------------------------------
// Processes

function tsxArgs(script: string, ...rest: string[]): string[] {
  return ['--import', 'tsx', path.join(root, script), ...rest];
}

async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(100);
  }
}

async function exitOf(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function stopChild(child: ChildProcess, timeoutMs = 8_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exitOf(child);
  clearTimeout(timer);
}

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
// Load cases

async function runLoadProcess(
  ctx: Context,
  name: string,
  spec: LoadSpec,
): Promise<{ result: LoadResult; usage: Usage; windowMicros: [number, number] }> {
  const specFile = path.join(ctx.tmp, `spec-${randomUUID()}.json`);
  const resultFile = `${specFile}.result.json`;
  writeFileSync(specFile, JSON.stringify(spec));
  const child = spawn(process.execPath, tsxArgs('bench/load.ts', specFile, resultFile), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let sampler: ReturnType<typeof startSampler> | undefined;
  // CLOCK_MONOTONIC, the clock of V8's CPU profiles: lets a profile be cut to the measured run.
  const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
  let measuredFrom = 0;
  child.on('message', (message: { event?: string }) => {
    if (message.event === 'measuring') {
      measuredFrom = monotonicMicros();
      sampler = startSampler({
        service: ctx.next.process.pid!,
        reference: ctx.reference.process.pid!,
        postgres: ctx.postmasterPid(),
        load: child.pid!,
      });
    }
  });
  const code = await exitOf(child);
  const windowMicros: [number, number] = [measuredFrom, monotonicMicros()];
  const usage = sampler?.stop() ?? {};
  if (code !== 0 || !existsSync(resultFile)) throw new Error(`load generator for ${name} exited with ${code}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as LoadResult;
  if (result.non2xx > 0 || result.errors > 0) {
    log(`  ${name}: ${result.non2xx} non-2xx, ${result.errors} errors; first failure: ${result.firstFailure ?? '-'}`);
  }
  return { result, usage, windowMicros };
}

async function outboxBacklog(ctx: Context): Promise<number> {
  const { rows } = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events WHERE dispatched_at IS NULL');
  return Number(rows[0].n);
}

async function waitForOutbox(ctx: Context, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await outboxBacklog(ctx)) > 0) {
    if (Date.now() > deadline) throw new Error('the outbox was not dispatched in time');
    await sleep(250);
  }
}

async function httpCase(
  ctx: Context,
  group: HttpCase['group'],
  connections: number,
  spec: Omit<LoadSpec, 'connections'>,
  round = 1,
  rounds = 1,
): Promise<HttpCase> {
  const name = caseLabel(group);
  log(`${name} @ ${connections} connections${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}`);
  await settleDatabase(ctx);
  const { result, usage } = await runLoadProcess(ctx, name, {
    warmupSec: SETTINGS.warmupSec,
    durationSec: SETTINGS.durationSec,
    ...spec,
    connections,
  });
  return { name, group, connections, result, usage, outboxBacklog: await outboxBacklog(ctx) };
}

/** One case measured in several rounds, as one: its runs pooled (poolRuns), CPU added up, peaks kept. */
function poolCases(runs: HttpCase[]): HttpCase {
  if (runs.length === 1) return runs[0];
  const usage: Usage = {};
  for (const run of runs) {
    for (const [name, u] of Object.entries(run.usage)) {
      const pooled = usage[name];
      usage[name] = pooled
        ? {
            peakProcessRssMb: Math.max(pooled.peakProcessRssMb, u.peakProcessRssMb),
            peakTreeRssMb: Math.max(pooled.peakTreeRssMb, u.peakTreeRssMb),
            cpuSeconds: pooled.cpuSeconds + u.cpuSeconds,
          }
        : { ...u };
    }
  }
  return {
    ...runs[0],
    result: poolRuns(runs.map((run) => run.result)),
    usage,
    outboxBacklog: Math.max(...runs.map((run) => run.outboxBacklog)),
    rounds: runs.map(({ result }) => ({ requestsPerSecond: result.requestsPerSecond, p50: result.latency.p50, p99: result.latency.p99 })),
  };
}

/**
 * Every case starts from the same database state: the previous case's rows vacuumed and
 * checkpointed now, so that autovacuum and a checkpoint it triggered do not land in the next
 * case (whichever server that is).
 */
async function settleDatabase(ctx: Context): Promise<void> {
  await ctx.admin.query('VACUUM (ANALYZE) quote_intents, quote_receipts, outbox_events, request_logs, webhook_deliveries, rate_limits');
  await ctx.admin.query('CHECKPOINT');
  await sleep(500);
}

/** Server + PostgreSQL CPU ms per request during the measured run. */
function cpuPerRequest(c: HttpCase): number | null {
  const server = c.group === 'reference' ? c.usage.reference : c.usage.service;
  if (!server || !c.usage.postgres || c.result.requests === 0) return null;
  return ((server.cpuSeconds + c.usage.postgres.cpuSeconds) * 1000) / c.result.requests;
}

function caseLabel(group: HttpCase['group']): string {
  return {
    reference: 'reference POST /quote',
    public_quotes: 'POST /v1/public_quotes',
    quotes: 'POST /v1/quotes',
    replay: 'POST /v1/quotes (idempotent replay)',
    simulation: 'POST /v1/accounts/{id}/quote-simulations',
  }[group];
}

async function runHttpCases(ctx: Context): Promise<HttpCase[]> {
  const { tenant, businessIds, accounts } = ctx.setup;
  const quoteBody = { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample };
  const quotes = {
    url: ctx.next.url,
    method: 'POST' as const,
    path: '/v1/quotes',
    headers: { authorization: `Bearer ${tenant.keys.test}` },
    body: quoteBody,
    uniqueField: 'idempotencyKey',
  };
  const reference = { url: ctx.reference.url, method: 'POST' as const, path: '/quote', body: quoteBody, uniqueField: 'idempotencyKey' };
  const publicQuotes = {
    url: ctx.next.url,
    method: 'POST' as const,
    path: '/v1/public_quotes',
    body: { ...demoExample },
    variants: businessIds.map((businessId) => ({ body: { businessId } })),
    uniqueField: 'idempotencyKey',
  };
  const cases: HttpCase[] = [];
  // Interleaved (reference, ours, ours) per concurrency so that a ratio compares runs minutes
  // apart at most on a machine whose load changes. At 32 connections, where the targets are, in
  // several such rounds pooled: one 10 s run's p99 is its 50 slowest answers, and the machine's
  // speed moves between runs minutes apart.
  for (const connections of SETTINGS.connections) {
    const rounds = connections === 32 ? SETTINGS.roundsAt32 : 1;
    const runs: Record<'reference' | 'quotes' | 'public_quotes', HttpCase[]> = { reference: [], quotes: [], public_quotes: [] };
    for (let round = 1; round <= rounds; round++) {
      const spec = { keepLatencies: rounds > 1 };
      runs.reference.push(await httpCase(ctx, 'reference', connections, { ...reference, ...spec }, round, rounds));
      runs.quotes.push(await httpCase(ctx, 'quotes', connections, { ...quotes, ...spec }, round, rounds));
      runs.public_quotes.push(await httpCase(ctx, 'public_quotes', connections, { ...publicQuotes, ...spec }, round, rounds));
    }
    cases.push(poolCases(runs.reference), poolCases(runs.quotes), poolCases(runs.public_quotes));
  }

  const replayBody = { ...quoteBody, idempotencyKey: `bench-replay-${randomUUID()}` };
  const first = await fetch(`${ctx.next.url}/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.keys.test}` },
    body: JSON.stringify(replayBody),
  });
  if (first.status !== 201) throw new Error(`replay setup: ${first.status} ${await first.text()}`);
  cases.push(await httpCase(ctx, 'replay', 32, { url: ctx.next.url, method: 'POST', path: '/v1/quotes', headers: quotes.headers, body: replayBody }));

  const simulation = {
    services: [{ service: demoExample.offeringId, selections: demoExample.factors }],
  };
  cases.push(
    await httpCase(ctx, 'simulation', 32, {
      url: ctx.next.url,
      method: 'POST',
      path: '/v1/accounts/x/quote-simulations',
      body: simulation,
      variants: accounts.map((a) => ({ path: `/v1/accounts/${a.accountId}/quote-simulations`, headers: { authorization: `Bearer ${a.key}` } })),
    }),
  );

  const referenceAt = (connections: number) => cases.find((c) => c.group === 'reference' && c.connections === connections);
  for (const c of cases) {
    if (c.group === 'reference') continue;
    const ref = referenceAt(c.connections) ?? referenceAt(32);
    if (!ref) continue;
    c.vsReference = {
      throughput: ratio(c.result.requestsPerSecond, ref.result.requestsPerSecond),
      p99: ratio(c.result.latency.p99, ref.result.latency.p99),
      cpu: ratio(cpuPerRequest(c), cpuPerRequest(ref)),
      reference: `${ref.name} @ ${ref.connections}`,
    };
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export type WebhookResult = {
  idle: { events: number; delayMs: LatencySummary; requestToDeliveryMs: LatencySummary };
  bursts: {
    name: string;
    endpoints: number;
    events: number;
    deliveries: number;
    seconds: number;
    deliveriesPerSecond: number;
    /** Between the first and the last arrival: the runner's steady rate. */
    steadyDeliveriesPerSecond: number;
    delayMs: LatencySummary;
    badSignatures: number;
    duplicates: number;
    /** Pairs of one endpoint's arrivals in the wrong outbox order (first arrivals of each delivery). */
    inversions: number;
    /** Deliveries that never arrived. */
    lost: number;
    /** Median attempt latency (the receiver's round trip as the service measured it). */
    roundTripMs: number;
    /** A service process killed with SIGKILL mid-burst: when, and when each duplicate came. */
    kill?: { atDelivered: number; duplicateDelaysMs: number[]; lastArrivalAfterKillMs: number };
    usage: Usage;
  }[];
};

/** Endpoints the fan-out bursts deliver to (issue 16: at least 300 deliveries/s across 8). */
const FAN_ENDPOINTS = 8;

async function runWebhookCases(ctx: Context, receiver: Receiver): Promise<WebhookResult> {
  const { hooks, hooksPerson } = ctx.setup;
  const now = new Date();
  const secrets = new Map<string, string>();
  const single = await createEndpoint(ctx.db.prisma, hooksPerson.principal, { projectId: hooks.projectId, environment: 'test', url: `${receiver.url}?endpoint=single` }, now);
  secrets.set(single.endpoint.id, single.secret);
  for (let i = 0; i < FAN_ENDPOINTS; i++) {
    const fan = await createEndpoint(ctx.db.prisma, hooksPerson.principal, { projectId: hooks.projectId, environment: 'live', url: `${receiver.url}?endpoint=fan${i}` }, now);
    secrets.set(fan.endpoint.id, fan.secret);
  }
  log('webhooks: waiting for the outbox of the load cases to be dispatched');
  await waitForOutbox(ctx);

  // Idle: one real quote at a time (its outbox event is written by the request), delivered by
  // the in-process runner of an otherwise idle service.
  log(`webhooks: idle latency, ${SETTINGS.idleEvents} single events`);
  const delays: number[] = [];
  const requestToDelivery: number[] = [];
  let eventData: unknown = null;
  for (let i = 0; i < SETTINGS.idleEvents; i++) {
    await sleep(300 + Math.random() * 500); // not aligned with the runner's 200 ms tick
    const before = receiver.received.length;
    const sentAt = Date.now();
    const response = await fetch(`${ctx.next.url}/v1/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hooks.keys.test}` },
      body: JSON.stringify({ businessId: hooks.businessId, bookId: hooks.bookId, ...demoExample, idempotencyKey: `idle-${randomUUID()}` }),
    });
    if (response.status !== 201) throw new Error(`webhook idle quote: ${response.status} ${await response.text()}`);
    eventData = ((await response.json()) as { data: unknown }).data;
    const deadline = Date.now() + 15_000;
    while (receiver.received.length === before) {
      if (Date.now() > deadline) throw new Error('no delivery within 15 s of an idle event');
      await sleep(2);
    }
    const arrival = receiver.received[before];
    const eventId = String(arrival.headers['service-event-id']);
    const { rows } = await ctx.admin.query<{ created_at: Date }>('SELECT created_at FROM outbox_events WHERE id = $1', [eventId]);
    delays.push(arrival.receivedAt.getTime() - rows[0].created_at.getTime());
    requestToDelivery.push(arrival.receivedAt.getTime() - sentAt);
  }
  await sleep(500);

  const bursts: WebhookResult['bursts'] = [];
  const burst = async (name: string, environmentId: string, endpoints: number, events: number, killAt?: number) => {
    log(`webhooks: ${name}: ${events} events x ${endpoints} endpoint(s)`);
    const expected = events * endpoints;
    const before = receiver.received.length;
    const sampler = startSampler({ service: ctx.next.process.pid!, postgres: ctx.postmasterPid() });
    const insertedAt = Date.now();
    let killedAt = 0;
    let killedAtDelivered = 0;
    await ctx.admin.query(
      `INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, business_id, data, created_at)
       SELECT gen_random_uuid(), 'quote_intent.succeeded', 1, $1, $2, $3, $4, $5::json, clock_timestamp()
       FROM generate_series(1, $6)`,
      [hooks.workspaceId, hooks.projectId, environmentId, hooks.businessId, JSON.stringify(eventData), events],
    );
    const deadline = Date.now() + 300_000;
    const distinct = () => new Set(receiver.received.slice(before).map((a) => String(a.headers['service-delivery-id']))).size;
    while (distinct() < expected) {
      if (Date.now() > deadline) throw new Error(`${name}: ${distinct()} of ${expected} deliveries within 300 s`);
      if (killAt !== undefined && !killedAt && receiver.received.length - before >= killAt * expected) {
        // One service process (a cluster worker, with its job runner) dies mid-burst; the primary starts another.
        // The process that is sending: the one with connections open to the receiver.
        const workers = childProcesses(ctx.next.process.pid!);
        const sender = lastSenderTo(new URL(receiver.url).port);
        const worker = workers.find((pid) => pid === sender) ?? workers[0];
        if (!worker) throw new Error('no service worker process to kill');
        process.kill(worker, 'SIGKILL');
        killedAt = Date.now();
        killedAtDelivered = receiver.received.length - before;
        log(`webhooks: killed service process ${worker} (SIGKILL) after ${killedAtDelivered} deliveries`);
      }
      await sleep(20);
    }
    // Anything the killed process had in flight is sent again once its lease runs out: wait that long for duplicates.
    if (killedAt) await sleep(Math.max(0, killedAt + LEASE_MS + 5_000 - Date.now()));
    const usage = sampler.stop();
    const arrivals = receiver.received.slice(before);
    const eventIds = [...new Set(arrivals.map((a) => String(a.headers['service-event-id'])))];
    const deliveryIds = arrivals.map((a) => String(a.headers['service-delivery-id']));
    const created = new Map(
      (await ctx.admin.query<{ id: string; created_at: Date }>('SELECT id::text, created_at FROM outbox_events WHERE id = ANY($1::uuid[])', [eventIds])).rows.map(
        (r) => [r.id, r.created_at.getTime()],
      ),
    );
    const endpointOf = new Map(
      (await ctx.admin.query<{ id: string; endpoint_id: string }>('SELECT id::text, endpoint_id::text FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [deliveryIds])).rows.map(
        (r) => [r.id, r.endpoint_id],
      ),
    );
    let badSignatures = 0;
    const pairs = new Set<string>();
    for (const a of arrivals) {
      const endpointId = endpointOf.get(String(a.headers['service-delivery-id']));
      const secret = endpointId ? secrets.get(endpointId) : undefined;
      const check = secret
        ? verifyWebhookSignature({ rawBody: a.rawBody, header: String(a.headers['service-signature']), secret, toleranceSeconds: 300 })
        : { ok: false };
      if (!check.ok) badSignatures++;
      pairs.add(`${a.headers['service-event-id']}/${endpointId}`);
    }
    const times = arrivals.map((a) => a.receivedAt.getTime());
    const first = Math.min(...times);
    const last = Math.max(...times);
    // Order: each endpoint's first arrivals against the outbox order of their events.
    const seqOf = new Map(
      (await ctx.admin.query<{ id: string; seq: string }>('SELECT id::text, seq::text FROM outbox_events WHERE id = ANY($1::uuid[])', [eventIds])).rows.map((r) => [
        r.id,
        Number(r.seq),
      ]),
    );
    const seen = new Set<string>();
    const perEndpoint = new Map<string, number[]>();
    const firstArrivalOf = new Map<string, number>();
    for (const a of arrivals) {
      const deliveryId = String(a.headers['service-delivery-id']);
      if (seen.has(deliveryId)) continue;
      seen.add(deliveryId);
      firstArrivalOf.set(deliveryId, a.receivedAt.getTime());
      const endpointId = endpointOf.get(deliveryId) ?? '?';
      perEndpoint.set(endpointId, [...(perEndpoint.get(endpointId) ?? []), seqOf.get(String(a.headers['service-event-id'])) ?? 0]);
    }
    let inversions = 0;
    for (const [endpointId, seqs] of perEndpoint) {
      const before = inversions;
      for (let i = 0; i < seqs.length; i++) for (let j = i + 1; j < seqs.length; j++) if (seqs[i] > seqs[j]) inversions++;
      if (inversions > before) {
        const at = seqs.findIndex((seq, i) => i > 0 && seq < seqs[i - 1]);
        log(`webhooks: ${name}: endpoint ${endpointId} out of order at arrival ${at}: seqs ${seqs.slice(Math.max(0, at - 3), at + 3).join(', ')}`);
      }
    }
    const duplicateArrivals = arrivals.filter((a, i) => arrivals.findIndex((b) => b.headers['service-delivery-id'] === a.headers['service-delivery-id']) !== i);
    const { rows: latencies } = await ctx.admin.query<{ latency_ms: number }>(
      'SELECT latency_ms FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) AND latency_ms IS NOT NULL',
      [[...seen]],
    );
    const lastFirstArrival = Math.max(...firstArrivalOf.values());
    bursts.push({
      name,
      endpoints,
      events,
      deliveries: arrivals.length,
      seconds: (lastFirstArrival - insertedAt) / 1000,
      deliveriesPerSecond: seen.size / ((lastFirstArrival - insertedAt) / 1000),
      steadyDeliveriesPerSecond: (seen.size - 1) / Math.max(0.001, (lastFirstArrival - first) / 1000),
      delayMs: summarize(arrivals.map((a) => a.receivedAt.getTime() - (created.get(String(a.headers['service-event-id'])) ?? Number.NaN))),
      badSignatures,
      duplicates: arrivals.length - pairs.size,
      inversions,
      lost: expected - seen.size,
      roundTripMs: summarize(latencies.map((l) => l.latency_ms)).p50,
      kill: killedAt
        ? {
            atDelivered: killedAtDelivered,
            duplicateDelaysMs: duplicateArrivals.map((a) => a.receivedAt.getTime() - killedAt),
            lastArrivalAfterKillMs: last - killedAt,
          }
        : undefined,
      usage,
    });
    await sleep(1_000);
  };
  await burst('burst, 1 endpoint', hooks.environments.test, 1, Math.round(SETTINGS.burstEvents / 4));
  await burst(`burst, ${FAN_ENDPOINTS} endpoints`, hooks.environments.live, FAN_ENDPOINTS, Math.round(SETTINGS.burstEvents / FAN_ENDPOINTS));
  await burst(`burst, ${FAN_ENDPOINTS} endpoints, a service process killed`, hooks.environments.live, FAN_ENDPOINTS, Math.round(SETTINGS.burstEvents / FAN_ENDPOINTS), 0.3);
  return { idle: { events: delays.length, delayMs: summarize(delays), requestToDeliveryMs: summarize(requestToDelivery) }, bursts };
}

// ---------------------------------------------------------------------------------------------
// Request-log search and quote trace

export type SearchCase = { name: string; query: string; result: LoadResult; topStatements: StatementStat[] };
export type SearchResult = { rows: number; insertSeconds: number; cases: SearchCase[] };

async function fillRequestLog(ctx: Context): Promise<{ rows: number; insertSeconds: number }> {
  const { tenant, person } = ctx.setup;
  const { rows } = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
  const missing = Math.max(0, SETTINGS.logRows - Number(rows[0].n));
  log(`search: inserting ${missing.toLocaleString('en-US')} request-log rows`);
  const started = Date.now();
  // Newest last (ids grow with time), two seconds apart: about 23 days of traffic. Statuses:
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
       now() - ($10::int - g) * interval '2 seconds'
     FROM generate_series(1, $10::int) AS g,
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
  await ctx.admin.query('VACUUM ANALYZE request_logs');
  await ctx.admin.query('ANALYZE outbox_events');
  const total = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM request_logs');
  return { rows: Number(total.rows[0].n), insertSeconds: (Date.now() - started) / 1000 };
}

async function runSearchCases(ctx: Context): Promise<SearchResult> {
  const { tenant, person } = ctx.setup;
  const filled = await fillRequestLog(ctx);
  const middle = (
    await ctx.admin.query<{ id: string; request_id: string; created_at: Date }>(
      'SELECT id::text, request_id, created_at FROM request_logs ORDER BY id LIMIT 1 OFFSET $1',
      [Math.floor(filled.rows / 2)],
    )
  ).rows[0];
  // The quote to trace: one made through the API now (its request log row and outbox event exist).
  const made = await fetch(`${ctx.next.url}/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.keys.test}` },
    body: JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample, idempotencyKey: `trace-${randomUUID()}` }),
  });
  if (made.status !== 201) throw new Error(`trace setup: ${made.status} ${await made.text()}`);
  const quoteIntentId = ((await made.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
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
    ['request-logs: a later page (cursor)', `/v1/request-logs?cursor=${middle.id}`],
    ['trace: by quote intent id', `/v1/quote-intents/${quote.id}/trace`],
    ['trace: by request id', `/v1/quote-intents/${quote.request_correlation_id}/trace`],
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
      amount: SETTINGS.searchRequests,
      warmupAmount: 5,
    });
    const statements = await readStatements(ctx);
    cases.push({ name, query, result, topStatements: statements.slice(0, 4) });
  }
  return { ...filled, cases };
}

// ---------------------------------------------------------------------------------------------
// SQL per request (pg_stat_statements), and the statement log of one POST /v1/quotes

export type StatementStat = { query: string; calls: number; totalMs: number; meanMs: number; rows: number };

async function resetStatements(ctx: Context): Promise<void> {
  await ctx.admin.query('SELECT pg_stat_statements_reset()');
}

async function readStatements(ctx: Context): Promise<StatementStat[]> {
  const { rows } = await ctx.admin.query<{ query: string; calls: string; total: number; rows: string }>(
    `SELECT s.query, s.calls, s.total_exec_time AS total, s.rows FROM pg_stat_statements s
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
  }));
}

export type SqlProfile = {
  name: string;
  requests: number;
  statementsPerRequest: number;
  dbMsPerRequest: number;
  statements: { query: string; perRequest: number; meanMs: number }[];
};

/** Statements per request: N sequential requests, minus what an idle window of equal length runs. */
async function sqlProfile(ctx: Context, name: string, spec: LoadSpec): Promise<SqlProfile> {
  log(`sql: ${name}`);
  const key = (s: StatementStat) => s.query;
  await resetStatements(ctx);
  const idleStarted = Date.now();
  await sleep(2_000);
  const idle = await readStatements(ctx);
  const idleSeconds = (Date.now() - idleStarted) / 1000;
  await resetStatements(ctx);
  const started = Date.now();
  const { result } = await runLoadProcess(ctx, name, { ...spec, connections: 1, amount: SETTINGS.sqlRequests, warmupAmount: undefined, warmupSec: undefined });
  await sleep(150); // the request log's 50 ms batch
  const busy = await readStatements(ctx);
  const seconds = (Date.now() - started) / 1000;
  const background = new Map(idle.map((s) => [key(s), { calls: (s.calls / idleSeconds) * seconds, totalMs: (s.totalMs / idleSeconds) * seconds }]));
  const n = result.requests;
  const statements = busy
    .map((s) => {
      const bg = background.get(key(s));
      return { query: s.query, perRequest: Math.max(0, s.calls - (bg?.calls ?? 0)) / n, meanMs: s.meanMs, totalMs: Math.max(0, s.totalMs - (bg?.totalMs ?? 0)) };
    })
    .filter((s) => s.perRequest >= 0.02)
    .sort((a, b) => b.perRequest - a.perRequest);
  return {
    name,
    requests: n,
    statementsPerRequest: statements.reduce((a, s) => a + s.perRequest, 0),
    dbMsPerRequest: statements.reduce((a, s) => a + s.totalMs, 0) / n,
    statements: statements.map(({ query, perRequest, meanMs }) => ({ query: query.slice(0, 400), perRequest, meanMs })),
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

async function runSqlCases(ctx: Context): Promise<{ profiles: SqlProfile[]; quoteStatementLog: string[] }> {
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
  await fetch(`${ctx.next.url}/v1/quotes`, { method: 'POST', headers: { 'content-type': 'application/json', ...apiHeaders }, body: JSON.stringify(replayBody) });
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
  const quoteStatementLog = await statementLog(ctx, () =>
    fetch(`${ctx.next.url}/v1/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...apiHeaders },
      body: JSON.stringify({ ...quoteBody, idempotencyKey: `log-${randomUUID()}` }),
    }),
  );
  return { profiles, quoteStatementLog };
}

// ---------------------------------------------------------------------------------------------
// CPU profile of `next start` under POST /v1/quotes @ 32

async function runProfile(ctx: Context): Promise<ProfileSummary & { requests: number }> {
  const dir = path.join(root, 'bench/results/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log('profile: restarting next start with --cpu-prof');
  await ctx.next.stop();
  // --cpu-prof is refused in NODE_OPTIONS: `next start` runs under node with the flag itself.
  // Next serves from this one process and exits through process.exit on SIGTERM, which writes the profile.
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(ctx.nextPort), '-H', '127.0.0.1'],
    { cwd: root, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...ctx.nextEnv }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${ctx.nextPort}`;
  await waitForHttp(`${url}/v1/status`, 60_000);
  ctx.next = { url, port: ctx.nextPort, process: child, stop: () => stopChild(child, 20_000) };
  const { tenant } = ctx.setup;
  const { windowMicros, result } = await runLoadProcess(ctx, 'profile', {
    url: ctx.next.url,
    method: 'POST',
    path: '/v1/quotes',
    headers: { authorization: `Bearer ${tenant.keys.test}` },
    body: { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample },
    uniqueField: 'idempotencyKey',
    connections: 32,
    warmupSec: SETTINGS.warmupSec,
    durationSec: SETTINGS.durationSec,
  });
  await ctx.next.stop();
  await sleep(1_000);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error('next start wrote no CPU profile');
  return { ...summarizeProfiles(files, windowMicros), requests: result.requests };
}

// ---------------------------------------------------------------------------------------------
// Output

const mb = (u: TreeUsage | undefined) => (u ? fmt(u.peakProcessRssMb, 0) : '');
const x = (v: number | null | undefined) => (v == null ? '' : `${v.toFixed(2)}x`);

function httpTable(cases: HttpCase[]): string {
  return formatTable(
    ['case', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'peak RSS MB', 'req/s vs ref', 'p99 vs ref', 'server CPU ms/req', 'PG CPU ms/req', 'CPU/req vs ref', 'non-2xx', 'outbox backlog'],
    cases.map((c) => {
      const server = c.group === 'reference' ? c.usage.reference : c.usage.service;
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
        c.group === 'reference' ? '' : c.outboxBacklog,
      ];
    }),
  );
}

function roundsTable(cases: HttpCase[]): string {
  const pooled = cases.filter((c) => c.rounds);
  const reference = pooled.find((c) => c.group === 'reference');
  return formatTable(
    ['case', 'round', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs ref', 'p99 vs ref'],
    pooled.flatMap((c) =>
      c.rounds!.map((round, i) => {
        const ref = c.group === 'reference' ? undefined : reference?.rounds?.[i];
        return [
          c.name,
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
    ['case', 'events', 'deliveries', 'deliveries/s', 'steady/s', 'round trip ms', 'delay p50 ms', 'delay p99 ms', 'delay max ms', 'peak RSS MB', 'bad signatures', 'duplicates', 'inversions', 'lost'],
    [
      ['idle, one event at a time', w.idle.events, w.idle.events, '', '', '', fmt(w.idle.delayMs.p50, 0), fmt(w.idle.delayMs.p99, 0), fmt(w.idle.delayMs.max, 0), '', '', '', '', ''],
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
        b.inversions,
        b.lost,
      ]),
    ],
  );
}

function searchTable(s: SearchResult): string {
  return formatTable(
    ['case', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'non-2xx'],
    s.cases.map((c) => [c.name, c.result.requests, fmt(c.result.requestsPerSecond, 0), fmt(c.result.latency.p50, 1), fmt(c.result.latency.p95, 1), fmt(c.result.latency.p99, 1), c.result.non2xx]),
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

type Target = { target: string; measured: string; pass: boolean | null };

function targets(r: Partial<Results>): Target[] {
  const out: Target[] = [];
  const q32 = r.http?.find((c) => c.group === 'quotes' && c.connections === 32);
  if (q32?.vsReference) {
    out.push({ target: 'POST /v1/quotes @32: throughput >= 0.25x reference', measured: x(q32.vsReference.throughput), pass: (q32.vsReference.throughput ?? 0) >= 0.25 });
    out.push({ target: 'POST /v1/quotes @32: p99 <= 4x reference', measured: x(q32.vsReference.p99), pass: (q32.vsReference.p99 ?? Infinity) <= 4 });
    const estimate = q32.vsReference.cpu ? 1 / q32.vsReference.cpu : null;
    out.push({
      target: '  (same, CPU-bound estimate: reference CPU/req ÷ ours, server + PostgreSQL)',
      measured: x(estimate),
      pass: estimate === null ? null : estimate >= 0.25,
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
      // One at a time, so its bound is 1 / round trip; the rest is our own time per send.
      const bound = 1000 / Math.max(0.001, single.roundTripMs);
      out.push({
        target: 'one endpoint: limited by its round trip (>= 50% of 1 / median round trip)',
        measured: `${fmt(single.steadyDeliveriesPerSecond, 0)}/s steady; round trip ${fmt(single.roundTripMs, 1)} ms → bound ${fmt(bound, 0)}/s`,
        pass: single.steadyDeliveriesPerSecond >= bound / 2,
      });
    }
    const clean = r.webhooks.bursts.filter((b) => !b.kill);
    out.push({
      target: 'bursts without crashes: 0 duplicates, 0 bad signatures, 0 order inversions, 0 lost',
      measured: clean.map((b) => `${b.duplicates}/${b.badSignatures}/${b.inversions}/${b.lost}`).join(', '),
      pass: clean.every((b) => b.duplicates === 0 && b.badSignatures === 0 && b.inversions === 0 && b.lost === 0),
    });
    if (killed?.kill) {
      out.push({
        target: `kill -9 of a service process mid-burst: 0 lost; duplicates only for sends in flight (<= ${FAN_ENDPOINTS})`,
        measured: `${killed.lost} lost, ${killed.duplicates} duplicates (retried ${killed.kill.duplicateDelaysMs.map((d) => `${fmt(d / 1000, 1)} s`).join(', ') || '—'} after the kill), ${killed.badSignatures} bad signatures`,
        pass: killed.lost === 0 && killed.duplicates <= FAN_ENDPOINTS && killed.badSignatures === 0,
      });
    }
  }
  if (r.search) {
    const logs = r.search.cases.filter((c) => c.name.startsWith('request-logs'));
    const worst = logs.reduce((a, c) => (c.result.latency.p95 > a.result.latency.p95 ? c : a), logs[0]);
    out.push({ target: `request-log search p95 < 100 ms at ${r.search.rows.toLocaleString('en-US')} rows (worst shape)`, measured: `${fmt(worst.result.latency.p95, 1)} ms (${worst.name})`, pass: worst.result.latency.p95 < 100 });
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
    ...(r.webhooks?.bursts ?? []).map((b) => b.usage.service?.peakProcessRssMb ?? 0),
  ];
  if (rss.length) out.push({ target: 'RSS per service process under load < 400 MB', measured: `${fmt(Math.max(...rss), 0)} MB`, pass: Math.max(...rss) < 400 });
  return out;
}

type Results = {
  startedAt: string;
  finishedAt: string;
  quick: boolean;
  settings: typeof SETTINGS;
  machine: Record<string, unknown>;
  http?: HttpCase[];
  engine?: EngineResult;
  webhooks?: WebhookResult;
  search?: SearchResult;
  sql?: { profiles: SqlProfile[]; quoteStatementLog: string[] };
  impact?: ImpactBenchResult;
  profile?: ProfileSummary & { requests: number };
  targets: Target[];
  errors: Record<string, string>;
};

function report(r: Results): string {
  const parts: string[] = [];
  parts.push(`Machine: ${r.machine.cpus} x ${r.machine.cpuModel}, ${r.machine.memoryGb} GB; node ${r.machine.node}; ${r.machine.postgres}`);
  parts.push(`Load average at start ${r.machine.loadStart}, at end ${r.machine.loadEnd} (other work on the machine shows here).`);
  parts.push(
    `Runs: warm-up ${SETTINGS.warmupSec} s, measured ${SETTINGS.durationSec} s per case${r.quick ? ' (--quick)' : ''}` +
      `${SETTINGS.roundsAt32 > 1 ? `; at 32 connections ${SETTINGS.roundsAt32} interleaved rounds, pooled` : ''}.`,
  );
  if (r.http) parts.push(`\nHTTP (autocannon in its own process; latency over every response)\n${httpTable(r.http)}`);
  if (r.http?.some((c) => c.rounds)) parts.push(`\nRounds at 32 connections (each round: reference, then ours; pooled above)\n${roundsTable(r.http)}`);
  if (r.engine) parts.push(`\nPricing engine alone (one thread)\n${engineTable(r.engine)}`);
  if (r.webhooks) parts.push(`\nWebhooks (in-process runner → local HTTPS receiver, signatures verified)\n${webhookTable(r.webhooks)}`);
  if (r.search) parts.push(`\nRequest-log search and quote trace (${r.search.rows.toLocaleString('en-US')} request-log rows; 1 connection)\n${searchTable(r.search)}`);
  if (r.sql) {
    parts.push(`\nSQL per request (pg_stat_statements, idle background subtracted)\n${sqlTable(r.sql.profiles)}`);
    const quotes = r.sql.profiles[0];
    parts.push(
      `\nStatements of ${quotes.name} (calls per request, mean ms)\n${quotes.statements
        .map((st) => `  ${st.perRequest.toFixed(2)}  ${st.meanMs.toFixed(3)} ms  ${st.query.slice(0, 150)}`)
        .join('\n')}`,
    );
    parts.push(`\nPostgreSQL statement log of one POST /v1/quotes (log_statement = all; runner statements left out)\n${r.sql.quoteStatementLog.map((l) => `  ${l}`).join('\n')}`);
  }
  if (r.profile) {
    parts.push(
      `\nCPU profile of next start under POST /v1/quotes @ 32, measured run only (${fmt(r.profile.totalMs / Math.max(1, r.profile.requests), 2)} ms busy CPU per request; self time)\n${formatTable(
        ['where', 'self %'],
        r.profile.byCategory.slice(0, 14).map((c) => [c.name, `${c.percent.toFixed(1)}%`]),
      )}\n\n${formatTable(['function', 'location', 'self %'], r.profile.byFunction.slice(0, 20).map((f) => [f.name, f.location, `${f.percent.toFixed(1)}%`]))}`,
    );
  }
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

  if (wants('http') || wants('webhooks') || wants('search') || wants('sql') || wants('impact') || flag('--profile')) {
    log('build: ensureBuild (next build unless the last build is current)');
    ensureBuild(root);
  }
  if (wants('engine')) {
    log('engine: generated books of 10, 100, 1,000 and 10,000 rules, and the demo book');
    const tmpEngine = path.join(os.tmpdir(), `quote-bench-engine-${process.pid}.json`);
    const child = spawn(process.execPath, tsxArgs('bench/engine.ts', tmpEngine, ...(quick ? ['--quick'] : [])), { cwd: root, stdio: 'inherit' });
    if ((await exitOf(child)) !== 0) throw new Error('engine benchmark failed');
    results.engine = JSON.parse(readFileSync(tmpEngine, 'utf8')) as EngineResult;
    rmSync(tmpEngine, { force: true });
  }

  const needsServers = wants('http') || wants('webhooks') || wants('search') || wants('sql') || wants('impact') || flag('--profile');
  if (needsServers) {
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
      process.env.WEBHOOK_SECRET_KEY = webhookKey; // createEndpoint seals secrets with it, as the service does
      log('provision: tenant, keys, businesses, accounts, webhook tenant (domain code)');
      const setup = await provision(db.prisma, { businesses: quick ? 300 : 600, accounts: quick ? 30 : 60 });

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
      const referencePort = await findFreePort();
      const referenceProcess = spawn(process.execPath, tsxArgs('bench/reference-server.ts'), {
        cwd: root,
        // The reference keeps its pool of 10 whatever the service is given.
        env: { ...process.env, DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10', PORT: String(referencePort), REFERENCE_CONFIG: JSON.stringify(referenceConfig) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      cleanups.push(() => stopChild(referenceProcess));
      const referenceUrl = `http://127.0.0.1:${referencePort}`;
      await waitForHttp(`${referenceUrl}/status`);

      const nextPort = await findFreePort();
      const nextEnv = {
        DATABASE_URL: database.url,
        WEBHOOK_SECRET_KEY: webhookKey,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        NODE_EXTRA_CA_CERTS: certs.caFile,
        NEXTAUTH_URL: `http://127.0.0.1:${nextPort}`,
        NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        JOB_RUNNER: 'in-process',
      };
      log(`service: next start on port ${nextPort}`);
      const next = await startNextServer({ root, port: nextPort, env: nextEnv, logFile: path.join(tmp, 'next.log') });
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
      if (flag('--profile')) await section('profile', async () => void (results.profile = await runProfile(ctx)));
    } finally {
      await cleanup();
    }
  }

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
