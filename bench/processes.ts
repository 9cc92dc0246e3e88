// Child processes of the bench: tsx scripts, waiting for them, stopping them, and one load
// generator run (bench/load.ts) with the CPU and memory of every process sampled meanwhile.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log, root, sleep, type Context, type Usage } from './context';
import type { LoadResult, LoadSpec } from './load';
import { startSampler } from './procfs';

export function tsxArgs(script: string, ...rest: string[]): string[] {
  return ['--import', 'tsx', path.join(root, script), ...rest];
}

/** The port a child says it listens on (`… on <port>`, its first such line on stdout); fails if it exits first. */
export function listeningPort(child: ChildProcess, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`no port announced within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = / on (\d+)\b/.exec(seen);
      if (!match) return;
      done();
      resolve(Number(match[1]));
    };
    const onExit = (code: number | null) => fail(new Error(`exited (code ${code}) before it listened`));
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      // Later lines are read and dropped, so that a full pipe never blocks the child.
      child.stdout?.resume();
    };
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
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

/** Makes a quote through the service's API (the request is logged, its event written) and returns its intent's id. */
export async function createQuoteThroughApi(url: string, apiKey: string, body: object): Promise<string> {
  const response = await fetch(`${url}/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`a bench quote answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
}

export async function exitOf(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

export async function stopChild(child: ChildProcess, timeoutMs = 8_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exitOf(child);
  clearTimeout(timer);
}


export async function runLoadProcess(
  ctx: Context,
  name: string,
  spec: LoadSpec,
  /** The process trees whose CPU and memory the measured run is charged with, read as it starts; the service's, the reference's, PostgreSQL's and the load's own by default. */
  measuredTrees?: (loadPid: number) => Promise<Record<string, number>>,
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
  let sampling: Promise<void> = Promise.resolve();
  child.on('message', (message: { event?: string }) => {
    if (message.event !== 'measuring') return;
    measuredFrom = monotonicMicros();
    const trees = measuredTrees
      ? measuredTrees(child.pid!)
      : Promise.resolve({ service: ctx.next.process.pid!, reference: ctx.reference.process.pid!, postgres: ctx.postmasterPid(), load: child.pid! });
    sampling = trees.then((roots) => void (sampler = startSampler(roots)));
  });
  const code = await exitOf(child);
  await sampling;
  const windowMicros: [number, number] = [measuredFrom, monotonicMicros()];
  const usage = sampler?.stop() ?? {};
  if (code !== 0 || !existsSync(resultFile)) throw new Error(`load generator for ${name} exited with ${code}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as LoadResult;
  if (result.non2xx > 0 || result.errors > 0) {
    log(`  ${name}: ${result.non2xx} non-2xx, ${result.errors} errors; first failure: ${result.firstFailure ?? '-'}`);
  }
  return { result, usage, windowMicros };
}
