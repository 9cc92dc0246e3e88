// Group `experiments` (issue 41 §5): what a running experiment costs the quote path. POST
// /v1/quotes and POST /v1/public_quotes, without an experiment and with one running in Test and
// in Live (control and one variant, 50/50, the variant priced 5% higher), each request a new
// subject, so that every quote of a "with" run is assigned. Two parts: one book measured each
// way in turn (runExperimentCostCases: absolute figures; the machine's drift between two runs
// moves their ratio by ±16%), and two service processes measured at the same time, swapping
// roles every round (runSideBySide: what the targets read).
import path from 'node:path';
import { demoExample } from '../../lib/books/demo-book';
import { onFreePort, startNextServer, type RunningServer } from '../../scripts/support/next-server';
import { log, root, type Context, type Usage } from '../context';
import type { LoadResult, LoadSpec } from '../load';
import { runLoadProcess } from '../processes';
import { startSampler } from '../procfs';
import { provisionExperimentTenant } from '../provision';
import { median, ratio, swappedPairsEstimate } from '../stats';
import { outboxBacklog, poolCases, settleDatabase } from './http';
import { sqlProfile, type SqlProfile } from './sql';

export type ExperimentRoute = 'quotes' | 'public_quotes';

export type ExperimentCostCase = {
  name: string;
  route: ExperimentRoute;
  experiment: boolean;
  connections: number;
  result: LoadResult;
  usage: Usage;
  outboxBacklog: number;
  rounds?: { requestsPerSecond: number; p50: number; p99: number }[];
  /** What the first 2xx answer's receipt recorded: `experiment <arm> (bucket n)` or `none`. */
  receipt: string;
};

export type ExperimentCostComparison = {
  route: ExperimentRoute;
  connections: number;
  /** With over without: requests per second, p50, p99, server + PostgreSQL CPU per request. */
  throughput: number | null;
  p50: number | null;
  p99: number | null;
  cpu: number | null;
  /**
   * Each round's with over its without (the two runs next to each other in time), and the median
   * of those: what the targets read. The machine's speed drifts between rounds by more than the 5%
   * asked (one round of a case ran at 0.75x the others); a pair shares its drift, and the median
   * is not moved by one disturbed round, as the pooled ratio is.
   */
  paired: { throughput: number | null; cpu: number | null; cpuByRound: (number | null)[] };
};

export type ExperimentCostResult = {
  cases: ExperimentCostCase[];
  comparisons: ExperimentCostComparison[];
  /** The experiment tenant's quotes per environment and arm, counted from the receipts after the runs. */
  arms: { environment: string; arm: string; quotes: number }[];
  /** Every with-experiment answer checked recorded an experiment, every without one none. */
  receiptsChecked: boolean;
  /** Statements and PostgreSQL time per request, sequential requests (pg_stat_statements, idle background subtracted): less moved by other work than CPU. */
  sql: SqlProfile[];
  /** The two sides measured at the same time (runSideBySide): what the targets read. */
  sideBySide: SideBySideComparison[];
};

/** How much dearer the variant is than the control (within the default 20% price guard). */
const VARIANT_PERCENT = 5;
export const ROUTE_LABEL: Record<ExperimentRoute, string> = { quotes: 'POST /v1/quotes', public_quotes: 'POST /v1/public_quotes' };

/** Server + PostgreSQL CPU ms per request during the measured run. */
export function serviceCpuPerRequest(c: { usage: Usage; result: LoadResult }): number | null {
  if (!c.usage.service || !c.usage.postgres || c.result.requests === 0) return null;
  return ((c.usage.service.cpuSeconds + c.usage.postgres.cpuSeconds) * 1000) / c.result.requests;
}

/** A POST to the service's own API as the tenant's member with books:publish. */
async function postAsPublisher(ctx: Context, token: string, path: string, body?: object): Promise<{ data: { experiment: { id: string; state: string } } }> {
  const response = await fetch(`${ctx.next.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as { data: { experiment: { id: string; state: string } } };
}

/** Creates and starts an experiment through the service's own API, as a member with books:publish does. */
async function startExperimentThroughApi(ctx: Context, token: string, bookId: string, environment: 'test' | 'live', versionId: string): Promise<string> {
  const created = await postAsPublisher(ctx, token, `/v1/books/${bookId}/experiments`, {
    environment,
    name: `Bench ${environment} +${VARIANT_PERCENT}%`,
    controlWeight: 50,
    variants: [{ versionId, weight: 50 }],
    // No acceptance guardrail: its minute job reads every quote of the experiment, off the quote
    // path, and would land in whichever run is measured when it fires.
    pauseWhenAcceptanceDropsPoints: null,
  });
  const id = created.data.experiment.id;
  const started = await postAsPublisher(ctx, token, `/v1/books/${bookId}/experiments/${id}/start`);
  if (started.data.experiment.state !== 'running') throw new Error(`experiment ${id} is ${started.data.experiment.state} after start`);
  return id;
}

/** The experiment the first answer's receipt recorded (or none); throws when it is not what the case expects. */
function checkReceipt(c: Pick<ExperimentCostCase, 'name' | 'experiment' | 'result'>, experimentId: string | null): string {
  if (!c.result.firstSuccess) throw new Error(`${c.name}: no 2xx answer to check`);
  let recorded: { arm: string; bucket: number; experimentId: string } | null | undefined;
  try {
    recorded = (JSON.parse(c.result.firstSuccess) as { data: { quoteReceipt: { experiment?: typeof recorded } } }).data.quoteReceipt.experiment;
  } catch {
    throw new Error(`${c.name}: the first answer is not a quote (${c.result.firstSuccess.slice(0, 200)})`);
  }
  if (c.experiment ? recorded?.experimentId !== experimentId : recorded != null) {
    throw new Error(`${c.name}: the receipt recorded ${JSON.stringify(recorded)}, expected ${c.experiment ? `experiment ${experimentId}` : 'none'}`);
  }
  return recorded ? `experiment ${recorded.arm} (bucket ${recorded.bucket})` : 'none';
}

/** Starts (a new one in Test and in Live) or stops the book's experiments; the ids running, or null. */
export type ExperimentSwitch = { set(running: boolean): Promise<Record<'test' | 'live', string> | null> };

/**
 * A tenant with as many businesses as the main one and a second version of its book
 * VARIANT_PERCENT% dearer, the same requests on its book whether an experiment runs or not (a
 * new subject per request: Quote-Subject, the visitor's cookie), and the switch that starts and
 * stops its experiments. Shared with `--profile experiment`.
 */
export async function provisionExperimentLoads(
  ctx: Context,
): Promise<{ specs: Record<ExperimentRoute, Omit<LoadSpec, 'connections'>>; experiments: ExperimentSwitch; bookId: string }> {
  // Public quotes spend 120 a minute of each business (spec 8), and these loads run one route for
  // minutes on end: over the http group's 600 businesses (1,200 quotes a second) side-by-side
  // rounds met 429s. Four times as many allow 4,800 a second; the tables show any non-2xx.
  const businesses = 4 * ctx.setup.businessIds.length;
  log(`experiments: a tenant with ${businesses} businesses and a version ${VARIANT_PERCENT}% dearer (domain code); its experiments started and stopped through the API`);
  const other = await provisionExperimentTenant(ctx.db.prisma, { businesses, variantPercent: VARIANT_PERCENT });
  const { tenant } = other;
  let running: Record<'test' | 'live', string> | null = null;
  const experiments: ExperimentSwitch = {
    async set(on) {
      if (on && !running) {
        running = {
          test: await startExperimentThroughApi(ctx, other.person.token, tenant.bookId, 'test', other.variantVersionId),
          live: await startExperimentThroughApi(ctx, other.person.token, tenant.bookId, 'live', other.variantVersionId),
        };
      } else if (!on && running) {
        for (const id of Object.values(running)) await postAsPublisher(ctx, other.person.token, `/v1/books/${tenant.bookId}/experiments/${id}/stop`);
        running = null;
      }
      return running;
    },
  };
  return {
    specs: {
      quotes: {
        url: ctx.next.url,
        method: 'POST',
        path: '/v1/quotes',
        headers: { authorization: `Bearer ${tenant.keys.test}` },
        body: { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample },
        uniqueField: 'idempotencyKey',
        uniqueHeaders: { 'quote-subject': 'customer-{n}' },
      },
      public_quotes: {
        url: ctx.next.url,
        method: 'POST',
        path: '/v1/public_quotes',
        body: { ...demoExample },
        variants: other.businessIds.map((businessId) => ({ body: { businessId } })),
        uniqueField: 'idempotencyKey',
        // A well-formed visitor id (22–64 of [A-Za-z0-9_-]): a shorter one is replaced by a fresh id and a Set-Cookie.
        uniqueHeaders: { cookie: 'qps_visitor=bench_visitor_00000000_{n}' },
      },
    },
    experiments,
    bookId: tenant.bookId,
  };
}

/** Each round's with over without, and their medians (requests per second; CPU per request). */
export function pairedRatios(without: ExperimentCostCase[], withExperiment: ExperimentCostCase[]): ExperimentCostComparison['paired'] {
  const cpuByRound = without.map((w, i) => ratio(serviceCpuPerRequest(withExperiment[i]), serviceCpuPerRequest(w)));
  const throughputByRound = without.map((w, i) => ratio(withExperiment[i].result.requestsPerSecond, w.result.requestsPerSecond));
  return { throughput: median(throughputByRound), cpu: median(cpuByRound), cpuByRound };
}

export async function runExperimentCostCases(
  ctx: Context,
  options: { connections: number[]; rounds: (connections: number) => number; sideBySide: { connections: number[]; rounds: number } },
): Promise<ExperimentCostResult> {
  const { specs, experiments, bookId } = await provisionExperimentLoads(ctx);

  const measure = async (route: ExperimentRoute, experiment: boolean, connections: number, round: number, rounds: number): Promise<ExperimentCostCase> => {
    const name = `${ROUTE_LABEL[route]}, ${experiment ? 'experiment running' : 'no experiment'}`;
    log(`${name} @ ${connections} connections (round ${round} of ${rounds})`);
    const running = await experiments.set(experiment);
    await settleDatabase(ctx);
    // The warm-up also lets every process learn of the start or stop (its remembered scope is
    // found stale by the first insert, which re-reads it).
    const { result, usage } = await runLoadProcess(ctx, name, {
      warmupSec: ctx.settings.warmupSec,
      durationSec: ctx.settings.durationSec,
      ...specs[route],
      connections,
      keepLatencies: rounds > 1,
    });
    const c = { name, route, experiment, connections, result, usage, outboxBacklog: await outboxBacklog(ctx), receipt: '' };
    c.receipt = checkReceipt(c, running ? running[route === 'quotes' ? 'test' : 'live'] : null);
    return c;
  };

  // Both versions compiled and every shape of request warmed in every service process before
  // anything is measured (run alone, this group starts on a service just started).
  for (const side of ['without', 'with'] as const) {
    await experiments.set(side === 'with');
    for (const route of ['quotes', 'public_quotes'] as const) {
      log(`${ROUTE_LABEL[route]} ${side} experiment: warming up @ 32 connections`);
      await runLoadProcess(ctx, `warm-up ${route} ${side}`, { ...specs[route], warmupSec: 0, durationSec: ctx.settings.warmupSec, connections: 32 });
    }
  }

  const cases: ExperimentCostCase[] = [];
  const comparisons: ExperimentCostComparison[] = [];
  for (const connections of options.connections) {
    const rounds = options.rounds(connections);
    for (const route of ['quotes', 'public_quotes'] as const) {
      const runs: Record<'without' | 'with', ExperimentCostCase[]> = { without: [], with: [] };
      for (let round = 1; round <= rounds; round++) {
        // Alternated: without then with in odd rounds, with then without in even ones, so that a
        // machine getting slower or faster during the case weighs on both alike.
        for (const experiment of round % 2 === 1 ? [false, true] : [true, false]) {
          runs[experiment ? 'with' : 'without'].push(await measure(route, experiment, connections, round, rounds));
        }
      }
      const pool = (list: ExperimentCostCase[]) => {
        const pooled = poolCases(list);
        return list.length > 1 ? { ...pooled, receipt: list.map((r) => r.receipt).find((r) => r !== 'none') ?? 'none' } : pooled;
      };
      const [without, withExperiment] = [pool(runs.without), pool(runs.with)];
      cases.push(without, withExperiment);
      comparisons.push({
        route,
        connections,
        throughput: ratio(withExperiment.result.requestsPerSecond, without.result.requestsPerSecond),
        p50: ratio(withExperiment.result.latency.p50, without.result.latency.p50),
        p99: ratio(withExperiment.result.latency.p99, without.result.latency.p99),
        cpu: ratio(serviceCpuPerRequest(withExperiment), serviceCpuPerRequest(without)),
        paired: pairedRatios(runs.without, runs.with),
      });
    }
  }

  const sql: SqlProfile[] = [];
  for (const side of ['without', 'with'] as const) {
    await experiments.set(side === 'with');
    for (const route of ['quotes', 'public_quotes'] as const) {
      sql.push(await sqlProfile(ctx, `${ROUTE_LABEL[route]}, ${side === 'with' ? 'experiment running' : 'no experiment'}`, { ...specs[route], connections: 1 }));
    }
  }

  const { rows } = await ctx.admin.query<{ environment: string; arm: string | null; quotes: string }>(
    `SELECT e.kind::text AS environment, r.experiment->>'arm' AS arm, count(*)::text AS quotes
       FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id JOIN environments e ON e.id = qi.environment_id
      WHERE qi.book_id = $1::uuid GROUP BY 1, 2 ORDER BY 1, 2`,
    [bookId],
  );
  const arms = rows.map((r) => ({ environment: r.environment, arm: r.arm ?? 'none', quotes: Number(r.quotes) }));
  log(`experiments: the experiment tenant's quotes by arm: ${arms.map((a) => `${a.environment} ${a.arm} ${a.quotes}`).join(', ')}`);
  await experiments.set(false);
  const sideBySide = await runSideBySide(ctx, options.sideBySide);
  return { cases, comparisons, arms, receiptsChecked: true, sql, sideBySide };
}

/** One side of a side-by-side round: its service process and its own PostgreSQL backends. */
export type SideMeasure = {
  side: 'a' | 'b';
  experiment: boolean;
  requests: number;
  requestsPerSecond: number;
  p99: number;
  /** CPU seconds of the side's service process and of the backends its pool holds. */
  serviceCpuSeconds: number;
  postgresCpuSeconds: number;
  cpuMsPerRequest: number | null;
  non2xx: number;
};

export type SideBySideComparison = {
  route: ExperimentRoute;
  connections: number;
  rounds: { with: SideMeasure; without: SideMeasure; cpu: number | null; throughput: number | null }[];
  /** Geometric means of consecutive rounds (each side "with" in one), and their median: what the target reads. */
  cpu: { pairs: number[]; median: number | null };
  throughput: { pairs: number[]; median: number | null };
  /** All rounds together: CPU per request of every "with" side over every "without" side. */
  pooledCpu: number | null;
  /** PostgreSQL CPU no side's backends account for (WAL writer, checkpointer, autovacuum), per request of both sides. */
  sharedPostgresMsPerRequest: number | null;
};

/**
 * Issue 41 §5 measured so that the machine's moment is the same on both sides: two service
 * processes (one worker each, their own pools, told apart in PostgreSQL by application_name),
 * two tenants with the same book and a 5% dearer version, loaded at the same time with half the
 * connections each. In each round one tenant's experiment runs and the other's does not; they
 * swap every round. A round's ratio is the "with" side's server + backend CPU per request over
 * the "without" side's in the same seconds; a pair of rounds cancels what differs between the
 * sides (swappedPairsEstimate). Sequential rounds moved the per-round ratio by ±16% (the
 * machine's drift between two 10 s runs), more than the 5% to be resolved.
 */
export async function runSideBySide(ctx: Context, options: { connections: number[]; rounds: number }): Promise<SideBySideComparison[]> {
  const loads = { a: await provisionExperimentLoads(ctx), b: await provisionExperimentLoads(ctx) };
  const servers: Record<'a' | 'b', RunningServer> = {} as never;
  const appName = (side: 'a' | 'b') => `bench-side-${side}`;
  try {
    for (const side of ['a', 'b'] as const) servers[side] = await startSideService(ctx, { root, name: appName(side), label: `experiments side by side: service ${side}` });
    const spec = (side: 'a' | 'b', route: ExperimentRoute, connections: number): LoadSpec => ({
      ...loads[side].specs[route],
      url: servers[side].url,
      connections,
      warmupSec: ctx.settings.warmupSec,
      durationSec: ctx.settings.durationSec,
    });

    // Every shape of request warmed in both processes, with and without, before anything is measured.
    for (const on of [false, true]) {
      await Promise.all([loads.a.experiments.set(on), loads.b.experiments.set(on)]);
      for (const route of ['quotes', 'public_quotes'] as const) {
        log(`experiments side by side: warming up ${ROUTE_LABEL[route]} ${on ? 'with' : 'without'}`);
        await Promise.all((['a', 'b'] as const).map((side) => runLoadProcess(ctx, `warm-up ${side}`, { ...spec(side, route, 16), warmupSec: 0 })));
      }
    }

    const comparisons: SideBySideComparison[] = [];
    for (const connections of options.connections) {
      for (const route of ['quotes', 'public_quotes'] as const) {
        const rounds: SideBySideComparison['rounds'] = [];
        let sharedPostgres = 0;
        let allRequests = 0;
        for (let round = 1; round <= options.rounds; round++) {
          const withSide: 'a' | 'b' = round % 2 === 1 ? 'a' : 'b';
          log(`${ROUTE_LABEL[route]} side by side @ ${connections} (${connections / 2} each), round ${round} of ${options.rounds}: the experiment runs on ${withSide}`);
          await Promise.all((['a', 'b'] as const).map((side) => loads[side].experiments.set(side === withSide)));
          await settleDatabase(ctx);
          const measured = await measureSideBySide(ctx, {
            a: spec('a', route, connections / 2),
            b: spec('b', route, connections / 2),
          }, servers, appName);
          const side = (name: 'a' | 'b'): SideMeasure => ({ ...measured.sides[name], side: name, experiment: name === withSide });
          const [w, wo] = [side(withSide), side(withSide === 'a' ? 'b' : 'a')];
          rounds.push({ with: w, without: wo, cpu: ratio(w.cpuMsPerRequest, wo.cpuMsPerRequest), throughput: ratio(w.requestsPerSecond, wo.requestsPerSecond) });
          sharedPostgres += measured.sharedPostgresCpuSeconds;
          allRequests += w.requests + wo.requests;
        }
        const pooled = (pick: 'with' | 'without') => {
          const requests = rounds.reduce((n, r) => n + r[pick].requests, 0);
          const cpu = rounds.reduce((n, r) => n + r[pick].serviceCpuSeconds + r[pick].postgresCpuSeconds, 0);
          return requests > 0 ? (cpu * 1000) / requests : null;
        };
        comparisons.push({
          route,
          connections,
          rounds,
          cpu: swappedPairsEstimate(rounds.map((r) => r.cpu)),
          throughput: swappedPairsEstimate(rounds.map((r) => r.throughput)),
          pooledCpu: ratio(pooled('with'), pooled('without')),
          sharedPostgresMsPerRequest: allRequests > 0 ? (sharedPostgres * 1000) / allRequests : null,
        });
      }
    }
    await Promise.all([loads.a.experiments.set(false), loads.b.experiments.set(false)]);
    return comparisons;
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}

/** One side's service: one process, its own pool, its backends named `name` in PostgreSQL (application_name). */
export async function startSideService(ctx: Context, side: { root: string; name: string; label: string }): Promise<RunningServer> {
  const url = new URL(ctx.nextEnv.DATABASE_URL);
  url.searchParams.set('application_name', side.name);
  return onFreePort((port) => {
    log(`${side.label} (one process) on port ${port}`);
    return startNextServer({
      root: side.root,
      port,
      env: { ...ctx.nextEnv, DATABASE_URL: url.toString(), WEB_CONCURRENCY: '1', NEXTAUTH_URL: `http://127.0.0.1:${port}` },
      logFile: path.join(ctx.tmp, `${side.name}.log`),
    });
  });
}

/**
 * Both sides' loads at once (their warm-ups and measured runs start together), each side's CPU
 * read over its own measured run: its service process, and the backends of its application_name.
 */
export async function measureSideBySide(
  ctx: Context,
  specs: Record<'a' | 'b', LoadSpec>,
  servers: Record<'a' | 'b', RunningServer>,
  appName: (side: 'a' | 'b') => string,
): Promise<{ sides: Record<'a' | 'b', Omit<SideMeasure, 'side' | 'experiment'>>; sharedPostgresCpuSeconds: number }> {
  const backends: Record<'a' | 'b', number[]> = { a: [], b: [] };
  let measuring = 0;
  let whole: ReturnType<typeof startSampler> | undefined;
  const run = async (side: 'a' | 'b') => {
    const { result, usage } = await runLoadProcess(ctx, `side ${side}`, specs[side], async () => {
      const { rows } = await ctx.admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [appName(side)]);
      backends[side] = rows.map((r) => r.pid);
      // The whole PostgreSQL tree once both sides measure: what neither side's backends account for.
      if (++measuring === 2) whole = startSampler({ postgres: ctx.postmasterPid() });
      return { service: servers[side].process.pid!, ...Object.fromEntries(backends[side].map((pid) => [`pg${pid}`, pid])) };
    });
    const postgresCpuSeconds = backends[side].reduce((sum, pid) => sum + (usage[`pg${pid}`]?.cpuSeconds ?? 0), 0);
    const serviceCpuSeconds = usage.service?.cpuSeconds ?? 0;
    return {
      requests: result.requests,
      requestsPerSecond: result.requestsPerSecond,
      p99: result.latency.p99,
      serviceCpuSeconds,
      postgresCpuSeconds,
      cpuMsPerRequest: result.requests > 0 && backends[side].length > 0 ? ((serviceCpuSeconds + postgresCpuSeconds) * 1000) / result.requests : null,
      non2xx: result.non2xx + result.errors,
    };
  };
  const [a, b] = await Promise.all([run('a'), run('b')]);
  const all = whole?.stop().postgres?.cpuSeconds ?? 0;
  return { sides: { a, b }, sharedPostgresCpuSeconds: Math.max(0, all - a.postgresCpuSeconds - b.postgresCpuSeconds) };
}
