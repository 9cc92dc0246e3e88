// Group `http`: autocannon against the service and the reference, interleaved per concurrency,
// pooled over rounds at 8 and 32 connections; each case's ratios against the reference.
import { randomUUID } from 'node:crypto';
import { demoExample } from '../../lib/books/demo-book';
import { log, sleep, type Context, type Usage } from '../context';
import type { LoadResult, LoadSpec } from '../load';
import { createQuoteThroughApi, runLoadProcess } from '../processes';
import { poolRuns, ratio } from '../stats';

export type HttpCase = {
  name: string;
  group: 'reference' | 'reference_trace' | 'reference_search' | 'public_quotes' | 'quotes' | 'replay' | 'simulation' | 'trace' | 'search';
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

export async function outboxBacklog(ctx: Context): Promise<number> {
  const { rows } = await ctx.admin.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events WHERE dispatched_at IS NULL');
  return Number(rows[0].n);
}

export async function waitForOutbox(ctx: Context, timeoutMs = 180_000): Promise<void> {
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
    warmupSec: ctx.settings.warmupSec,
    durationSec: ctx.settings.durationSec,
    ...spec,
    connections,
  });
  return { name, group, connections, result, usage, outboxBacklog: await outboxBacklog(ctx) };
}

/** One case measured in several rounds, as one: its runs pooled (poolRuns), CPU added up, peaks kept. */
export function poolCases<C extends Pick<HttpCase, 'result' | 'usage' | 'outboxBacklog' | 'rounds'>>(runs: C[]): C {
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
export async function settleDatabase(ctx: Context): Promise<void> {
  await ctx.admin.query('VACUUM (ANALYZE) quote_intents, quote_receipts, outbox_events, request_logs, webhook_deliveries, rate_limits');
  await ctx.admin.query('CHECKPOINT');
  await sleep(500);
}

/** The bare node:http + pg server's cases (bench/reference-server.ts): a write and two reads. */
export const isReference = (group: HttpCase['group']) => group.startsWith('reference');

/** What each case is compared with: a read with the reference's same read, a write with its write (at the same concurrency). */
const READ_REFERENCES: Partial<Record<HttpCase['group'], HttpCase['group']>> = { trace: 'reference_trace', search: 'reference_search' };
export const referenceGroupOf = (group: HttpCase['group']): HttpCase['group'] => READ_REFERENCES[group] ?? 'reference';

/** Server + PostgreSQL CPU ms per request during the measured run. */
function cpuPerRequest(c: HttpCase): number | null {
  const server = isReference(c.group) ? c.usage.reference : c.usage.service;
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
    trace: 'GET /v1/quote-intents/{id}/trace (a read)',
    reference_trace: 'reference GET /trace/{id}',
    search: 'GET /v1/request-logs (a read)',
    reference_search: 'reference GET /request-logs',
  }[group];
}

/**
 * The two quote writes as the http group (and the profile) load them: API quotes with the main
 * tenant's Test key, and public quotes spread over its connected businesses (spec 8's limit is
 * per business); each request with a key of its own.
 */
export function quoteWriteLoads(ctx: Context) {
  const { tenant, businessIds } = ctx.setup;
  const quoteBody = { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample };
  const quotes = {
    url: ctx.next.url,
    method: 'POST' as const,
    path: '/v1/quotes',
    headers: { authorization: `Bearer ${tenant.keys.test}` },
    body: quoteBody,
    uniqueField: 'idempotencyKey',
  };
  const publicQuotes = {
    url: ctx.next.url,
    method: 'POST' as const,
    path: '/v1/public_quotes',
    body: { ...demoExample },
    variants: businessIds.map((businessId) => ({ body: { businessId } })),
    uniqueField: 'idempotencyKey',
  };
  return { quoteBody, quotes, publicQuotes };
}

export async function runHttpCases(ctx: Context): Promise<HttpCase[]> {
  const { tenant, accounts } = ctx.setup;
  const { quoteBody, quotes, publicQuotes } = quoteWriteLoads(ctx);
  const reference = { url: ctx.reference.url, method: 'POST' as const, path: '/quote', body: quoteBody, uniqueField: 'idempotencyKey' };
  const replayBody = { ...quoteBody, idempotencyKey: `bench-replay-${randomUUID()}` };
  await createQuoteThroughApi(ctx.next.url, tenant.keys.test, replayBody);
  const simulation = { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] };
  // The reads a member makes most, each beside the reference's same read (bench/reference-server.ts):
  // a member traces a quote (the intent, its receipt, version, request and events), and reads the
  // newest page of the request log.
  const tracedId = await createQuoteThroughApi(ctx.next.url, tenant.keys.test, { ...quoteBody, idempotencyKey: `bench-trace-${randomUUID()}` });
  const member = { method: 'GET' as const, headers: { authorization: `Bearer ${ctx.setup.person.token}` } };
  /** Every route family and its reference, in the order they run; `once`: one round even where the others run several. */
  const families: { group: HttpCase['group']; spec: Omit<LoadSpec, 'connections'>; once?: boolean }[] = [
    { group: 'reference', spec: reference },
    { group: 'quotes', spec: quotes },
    { group: 'public_quotes', spec: publicQuotes },
    { group: 'replay', spec: { url: ctx.next.url, method: 'POST', path: '/v1/quotes', headers: quotes.headers, body: replayBody }, once: true },
    {
      group: 'simulation',
      spec: {
        url: ctx.next.url,
        method: 'POST',
        path: '/v1/accounts/x/quote-simulations',
        body: simulation,
        variants: accounts.map((a) => ({ path: `/v1/accounts/${a.accountId}/quote-simulations`, headers: { authorization: `Bearer ${a.key}` } })),
      },
      once: true,
    },
    { group: 'reference_trace', spec: { ...member, url: ctx.reference.url, path: `/trace/${tracedId}` } },
    { group: 'trace', spec: { ...member, url: ctx.next.url, path: `/v1/quote-intents/${tracedId}/trace` } },
    { group: 'reference_search', spec: { ...member, url: ctx.reference.url, path: '/request-logs' } },
    { group: 'search', spec: { ...member, url: ctx.next.url, path: '/v1/request-logs' } },
  ];
  const cases: HttpCase[] = [];
  // Every family at every concurrency, each round in the same order (each reference just before
  // its cases), so that a ratio compares runs minutes apart at most on a machine whose load
  // changes. At 8 and 32 connections, where the targets are, in several rounds pooled: one 10 s
  // run's p99 is its 50 slowest answers, and the machine's speed moves between runs a minute apart.
  for (const connections of ctx.settings.connections) {
    const rounds = connections >= 8 ? ctx.settings.pooledRounds : 1;
    const runs = new Map(families.map((family) => [family.group, [] as HttpCase[]]));
    for (let round = 1; round <= rounds; round++) {
      for (const { group, spec, once } of families) {
        if (once && round > 1) continue;
        runs.get(group)!.push(await httpCase(ctx, group, connections, { ...spec, keepLatencies: rounds > 1 && !once }, round, once ? 1 : rounds));
      }
    }
    cases.push(...[...runs.values()].map(poolCases));
  }

  const referenceAt = (group: HttpCase['group'], connections: number) => cases.find((c) => c.group === group && c.connections === connections);
  for (const c of cases) {
    if (isReference(c.group)) continue;
    const own = referenceGroupOf(c.group);
    const ref = referenceAt(own, c.connections) ?? referenceAt(own, 32);
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
