import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The direct children of a process (a serve.mjs primary's workers), read from /proc as `pgrep -P`
 * would answer: waiting loops call this every few milliseconds, and a spawn each time cost a loaded
 * machine whole seconds of CPU.
 */
export function childProcesses(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone
  }
  return threads.flatMap((thread) => {
    try {
      return readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

/** Every process under `pid`, depth first. */
export function descendantProcesses(pid: number): number[] {
  return childProcesses(pid).flatMap((child) => [child, ...descendantProcesses(child)]);
}

/** A process's command line, its arguments joined by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Whether a process is still running: it exists and is not a zombie (exited, not yet reaped by its new parent). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (name) state …"; the name may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // gone between the two looks
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
