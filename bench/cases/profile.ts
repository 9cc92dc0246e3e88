// `--profile [trace]`: a CPU profile of the service (scripts/serve.mjs, one process) under POST
// /v1/quotes @ 32, or under a member's GET /v1/quote-intents/{id}/trace @ 32 (bench/profile-summary.ts
// reads it).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { demoExample } from '../../lib/books/demo-book';
import { log, root, sleep, type Context } from '../context';
import { createQuoteThroughApi, runLoadProcess, stopChild, waitForHttp } from '../processes';
import { summarizeProfiles, type ProfileSummary } from '../profile-summary';

/** What the profiled load asks: quotes (the default) or traces of one quote, the read route. */
export type ProfiledRoute = 'quotes' | 'trace';

export const PROFILED_ROUTE_LABELS: Record<ProfiledRoute, string> = {
  quotes: 'POST /v1/quotes',
  trace: 'GET /v1/quote-intents/{id}/trace',
};

export async function runProfile(ctx: Context, route: ProfiledRoute): Promise<ProfileSummary & { requests: number; route: ProfiledRoute }> {
  const dir = path.join(root, 'bench/results/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log('profile: restarting the service as one process with --cpu-prof');
  await ctx.next.stop();
  // --cpu-prof is refused in NODE_OPTIONS: the server runs under node with the flag itself, as one
  // process (no cluster), which exits through process.exit on SIGTERM and so writes the profile.
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(root, 'scripts/serve.mjs')], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...ctx.nextEnv, PORT: String(ctx.nextPort), HOST: '127.0.0.1', WEB_CONCURRENCY: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${ctx.nextPort}`;
  await waitForHttp(`${url}/v1/status`, 60_000);
  ctx.next = { url, port: ctx.nextPort, process: child, stop: () => stopChild(child, 20_000) };
  const { tenant, person } = ctx.setup;
  const quoteBody = { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample };
  const load =
    route === 'quotes'
      ? { method: 'POST' as const, path: '/v1/quotes', headers: { authorization: `Bearer ${tenant.keys.test}` }, body: quoteBody, uniqueField: 'idempotencyKey' }
      : {
          method: 'GET' as const,
          path: `/v1/quote-intents/${await createQuoteThroughApi(url, tenant.keys.test, { ...quoteBody, idempotencyKey: `bench-profile-trace-${randomUUID()}` })}/trace`,
          headers: { authorization: `Bearer ${person.token}` },
        };
  const { windowMicros, result } = await runLoadProcess(ctx, 'profile', {
    url: ctx.next.url,
    ...load,
    connections: 32,
    warmupSec: ctx.settings.warmupSec,
    durationSec: ctx.settings.durationSec,
  });
  await ctx.next.stop();
  await sleep(1_000);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error('the service wrote no CPU profile');
  return { ...summarizeProfiles(files, windowMicros), requests: result.requests, route };
}

