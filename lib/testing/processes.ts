import { spawnSync } from 'node:child_process';

/** The direct children of a process (`pgrep -P`): a serve.mjs primary's workers. */
export function childProcesses(pid: number): number[] {
  return spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
}

/** Every process under `pid`, depth first. */
export function descendantProcesses(pid: number): number[] {
  return childProcesses(pid).flatMap((child) => [child, ...descendantProcesses(child)]);
}

/** Whether a process exists (a zombie still does). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The process that sent to the port last: `ss` names each socket's process and says how long
 * ago it last sent (keep-alive connections of an idle process stay open, so being connected is not enough).
 */
export function lastSenderTo(port: string): number | undefined {
  const out = spawnSync('ss', ['-Htnpi', 'dst', `127.0.0.1:${port}`], { encoding: 'utf8' }).stdout ?? '';
  let best: { pid: number; lastSendMs: number } | undefined;
  let pid: number | undefined;
  for (const line of out.split('\n')) {
    const owner = /pid=(\d+)/.exec(line);
    if (owner) pid = Number(owner[1]);
    const lastSend = /lastsnd:(\d+)/.exec(line);
    if (lastSend && pid !== undefined && (!best || Number(lastSend[1]) < best.lastSendMs)) best = { pid, lastSendMs: Number(lastSend[1]) };
  }
  return best?.pid;
}
