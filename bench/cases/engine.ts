// Group `engine`, the runner's side: runs bench/engine.ts (the pricing engine alone, one thread)
// as its own process and reads back what it measured.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, root } from '../context';
import type { EngineResult } from '../engine';
import { exitOf, tsxArgs } from '../processes';

export async function runEngineCases(quick: boolean): Promise<EngineResult> {
  log('engine: generated books of 10, 100, 1,000 and 10,000 rules, and the demo book');
  const tmpEngine = path.join(os.tmpdir(), `quote-bench-engine-${process.pid}.json`);
  const child = spawn(process.execPath, tsxArgs('bench/engine.ts', tmpEngine, ...(quick ? ['--quick'] : [])), { cwd: root, stdio: 'inherit' });
  if ((await exitOf(child)) !== 0) throw new Error('engine benchmark failed');
  const result = JSON.parse(readFileSync(tmpEngine, 'utf8')) as EngineResult;
  rmSync(tmpEngine, { force: true });
  return result;
}
