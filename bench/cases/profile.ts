// `--profile [public|trace|experiment]`: a CPU profile of the service (scripts/serve.mjs, one
// process) under POST /v1/quotes @ 32, under POST /v1/public_quotes @ 32 as the http group asks
// them, under a member's GET /v1/quote-intents/{id}/trace @ 32, or under POST /v1/public_quotes
// @ 32 on one book without and with an experiment running (started and stopped between runs),
// alternated, each side summarised from its own runs (bench/profile-summary.ts);
// `--connections 8` profiles at the first concurrency named instead of 32.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { log, root, sleep, type Context } from '../context';
import { createQuoteThroughApi, runLoadProcess, stopChild, waitForHttp } from '../processes';
import { summarizeProfiles, type ProfileSummary } from '../profile-summary';
import { provisionExperimentLoads } from './experiments';
import { quoteWriteLoads } from './http';

/** What the profiled load asks: API quotes (the default), public quotes, traces of one quote (the read route), or public quotes with and without an experiment. */
export type ProfiledRoute = 'quotes' | 'public' | 'trace' | 'experiment';

export const PROFILED_ROUTE_LABELS: Record<ProfiledRoute, string> = {
  quotes: 'POST /v1/quotes',
  public: 'POST /v1/public_quotes',
  trace: 'GET /v1/quote-intents/{id}/trace',
  experiment: 'POST /v1/public_quotes, no experiment',
};

export type ProfileResult = ProfileSummary & {
  requests: number;
  route: ProfiledRoute;
  connections: number;
  /** `experiment`: the same route on the book with an experiment running, from the alternated runs. */
  withExperiment?: ProfileSummary & { requests: number };
};

/** Rounds of each side in `--profile experiment` (without, with; then with, without; …). */
const EXPERIMENT_PROFILE_ROUNDS = 4;

export async function runProfile(ctx: Context, route: ProfiledRoute, connections = 32): Promise<ProfileResult> {
  // Provisioned before the restart: the experiment is created and started through the API.
  const experiment = route === 'experiment' ? await provisionExperimentLoads(ctx) : null;
  const dir = path.join(root, 'bench/results/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log('profile: restarting the service as one process with --cpu-prof');
  await ctx.next.stop();
  // --cpu-prof is refused in NODE_OPTIONS: the server runs under node with the flag itself, which
  // its one worker inherits; each process exits through process.exit on SIGTERM and so writes its
  // profile (the primary's is idle: it only hands on connections).
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(root, 'scripts/serve.mjs')], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...ctx.nextEnv, PORT: String(ctx.nextPort), HOST: '127.0.0.1', WEB_CONCURRENCY: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${ctx.nextPort}`;
  await waitForHttp(`${url}/v1/status`, 60_000);
  ctx.next = { url, port: ctx.nextPort, process: child, stop: () => stopChild(child, 20_000) };
  const files = () => readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  const measured = { warmupSec: ctx.settings.warmupSec, durationSec: ctx.settings.durationSec, connections };

  if (experiment) {
    const windows: Record<'without' | 'with', [number, number][]> = { without: [], with: [] };
    const requests = { without: 0, with: 0 };
    for (let round = 1; round <= EXPERIMENT_PROFILE_ROUNDS; round++) {
      for (const side of round % 2 === 1 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
        log(`profile: POST /v1/public_quotes ${side} experiment @ ${connections} (round ${round} of ${EXPERIMENT_PROFILE_ROUNDS})`);
        await experiment.experiments.set(side === 'with');
        const run = await runLoadProcess(ctx, `profile ${side}`, { ...experiment.specs.public_quotes, url, ...measured });
        windows[side].push(run.windowMicros);
        requests[side] += run.result.requests;
      }
    }
    await ctx.next.stop();
    await sleep(1_000);
    if (files().length === 0) throw new Error('the service wrote no CPU profile');
    return {
      ...summarizeProfiles(files(), windows.without),
      requests: requests.without,
      route,
      connections,
      withExperiment: { ...summarizeProfiles(files(), windows.with), requests: requests.with },
    };
  }

  const { tenant, person } = ctx.setup;
  const { quoteBody, quotes, publicQuotes } = quoteWriteLoads(ctx);
  const load =
    route === 'quotes'
      ? quotes
      : route === 'public'
        ? publicQuotes
        : {
            url,
            method: 'GET' as const,
            path: `/v1/quote-intents/${await createQuoteThroughApi(url, tenant.keys.test, { ...quoteBody, idempotencyKey: `bench-profile-trace-${randomUUID()}` })}/trace`,
            headers: { authorization: `Bearer ${person.token}` },
          };
  const { windowMicros, result } = await runLoadProcess(ctx, 'profile', { ...load, ...measured });
  await ctx.next.stop();
  await sleep(1_000);
  if (files().length === 0) throw new Error('the service wrote no CPU profile');
  return { ...summarizeProfiles(files(), [windowMicros]), requests: result.requests, route, connections };
}
