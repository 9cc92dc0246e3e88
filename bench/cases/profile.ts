// `--profile`: a CPU profile of `next start` under POST /v1/quotes @ 32 (bench/profile-summary.ts
// reads it).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { demoExample } from '../../lib/books/demo-book';
import { log, root, sleep, type Context } from '../context';
import { runLoadProcess, stopChild, waitForHttp } from '../processes';
import { summarizeProfiles, type ProfileSummary } from '../profile-summary';

export async function runProfile(ctx: Context): Promise<ProfileSummary & { requests: number }> {
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
    warmupSec: ctx.settings.warmupSec,
    durationSec: ctx.settings.durationSec,
  });
  await ctx.next.stop();
  await sleep(1_000);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error('next start wrote no CPU profile');
  return { ...summarizeProfiles(files, windowMicros), requests: result.requests };
}
