import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { findFreePort } from '../../lib/db/embedded';
import { writeRouteTable } from '../route-table.mjs';

const SOURCES = ['app', 'lib', 'inngest', 'sdk/src', 'instrumentation.ts', 'prisma/schema.prisma', 'next.config.mjs', 'package.json', 'tsconfig.json', 'scripts/build-api-router.mjs', 'scripts/route-table.mjs'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * The settings of a throwaway service on this machine (the bench, the reliability run): its own
 * database and webhook key, private webhook targets allowed (receivers on loopback, trusted
 * through the test CA), quiet logs, the in-process job runner.
 */
function throwawayServiceEnv(options: { databaseUrl: string; webhookKey: string; caFile: string; port: number }): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    SEALING_KEY: options.webhookKey,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    NODE_EXTRA_CA_CERTS: options.caFile,
    NEXTAUTH_URL: `http://127.0.0.1:${options.port}`,
    NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    JOB_RUNNER: 'in-process',
  };
}

/**
 * A throwaway service (its settings above) on a free port, another when that one is taken before
 * the service binds it (`onFreePort`). `env` is what it runs with; `restart` starts it again on
 * the same port with the same settings, where its clients keep calling (after a crash, a stop).
 */
export async function startThrowawayService(options: { root: string; databaseUrl: string; webhookKey: string; caFile: string; logFile: string }) {
  const start = (port: number) => startNextServer({ root: options.root, port, env: throwawayServiceEnv({ ...options, port }), logFile: options.logFile });
  const service = await onFreePort(start);
  return { service, env: throwawayServiceEnv({ ...options, port: service.port }), restart: () => start(service.port) };
}

/**
 * Runs `next build` unless the last build is newer than every source file, then bundles the API
 * router; says which it did: `up to date`, `built` (a production build: about two minutes), `bundled`.
 */
export function ensureBuild(root: string): 'up to date' | 'built' | 'bundled' {
  // The build type-checks the router, which imports the generated table of the route files.
  writeRouteTable();
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  const router = path.join(root, '.next', 'api-router.mjs');
  if (builtAt > changedAt && existsSync(router) && statSync(router).mtimeMs >= builtAt) return 'up to date';
  const build = !(builtAt > changedAt);
  if (build) {
    console.log(`Building the portal and API (next build, a production build: about two minutes${builtAt ? ', since sources changed' : ' the first time'})…`);
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  }
  const bundled = spawnSync(process.execPath, [path.join(root, 'scripts/build-api-router.mjs')], { cwd: root, stdio: 'inherit' });
  if (bundled.status !== 0) throw new Error(`bundling the API router failed with exit code ${bundled.status}`);
  return build ? 'built' : 'bundled';
}

export type RunningServer = {
  url: string;
  port: number;
  process: ChildProcess;
  /**
   * SIGTERM, and the service's graceful stop within STOP_BOUND_MS; `{ graceful: false }`: SIGKILL
   * at once (its workers exit with it), for the end of a test run, where nothing in flight matters.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
};

/**
 * How long a stopping service may take: its workers finish the webhook sends in flight (one
 * attempt, at most 10 s, and its record) within scripts/serve.mjs's bound of 25 s.
 */
export const STOP_BOUND_MS = 30_000;

/** The service did not start: it exited first, or did not answer in time. The message says why. */
export class ServiceStartError extends Error {}

/** The service could not listen on its port: another process holds it. */
class PortTakenError extends ServiceStartError {}

/**
 * Starts the production server (scripts/serve.mjs: a cluster of Next.js servers, as many as
 * WEB_CONCURRENCY or its default says) and waits until /v1/status answers 200. Without a `port`
 * it takes a free one (`onFreePort`); with a `logFile`, where it reads why a start failed.
 */
export async function startNextServer(options: {
  root: string;
  port?: number;
  env: Record<string, string>;
  logFile?: string;
  hostname?: string;
}): Promise<RunningServer> {
  if (options.port !== undefined) return startOnce({ ...options, port: options.port });
  return onFreePort((port) => startOnce({ ...options, port }));
}

/**
 * Runs `start` with a free port, and again with another (three tries in all) when a server it
 * starts with a `logFile` finds that port taken before binding it: a test run starts servers,
 * databases and poolers on free ports at the same moments. `start` undoes what it started
 * before it throws.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await findFreePort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

async function startOnce(options: { root: string; port: number; env: Record<string, string>; logFile?: string; hostname?: string }): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const child = spawn(
    process.execPath,
    [path.join(options.root, 'scripts/serve.mjs')],
    {
      cwd: options.root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', PORT: String(options.port), HOST: hostname, ...options.env },
      stdio: options.logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    },
  );
  // With a log file, its errors are also kept (the last 8 KB) to say why a start failed.
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-8192)));
  if (options.logFile) {
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const url = `http://${hostname === '0.0.0.0' ? '127.0.0.1' : hostname}:${options.port}`;
  const exit = new AbortController();
  const exited = new Promise<void>((resolve) => child.once('exit', () => (exit.abort(), resolve())));
  const deadline = Date.now() + 60_000;
  // What the last try saw, and the service's last errors: a start that fails says why in its
  // error (a test run shows the error, not the log file).
  let lastAnswer = 'no answer';
  const why = () => `${url}/v1/status: ${lastAnswer}${errors ? `; the service's last errors:\n${errors.trimEnd().split('\n').slice(-30).join('\n')}` : ''}`;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `the service exited with code ${child.exitCode}: ${why()}`;
      throw errors.includes('EADDRINUSE') ? new PortTakenError(message) : new ServiceStartError(message);
    }
    try {
      // Bounded, and over when the service exits: whatever else holds the port (a PostgreSQL
      // waits a minute for its start-up packet) must not hold the wait up.
      const response = await fetch(`${url}/v1/status`, { signal: AbortSignal.any([AbortSignal.timeout(5_000), exit.signal]) });
      if (response.ok) break;
      lastAnswer = `${response.status} ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      // not listening yet (or it exited: said below)
      if (!exit.signal.aborted) lastAnswer = String((error as { cause?: unknown }).cause ?? error);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new ServiceStartError(`the service did not answer /v1/status within 60 s: ${why()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port: options.port,
    process: child,
    async stop({ graceful = true } = {}) {
      if (child.exitCode === null) child.kill(graceful ? 'SIGTERM' : 'SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_BOUND_MS).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
