// Memory and CPU of process trees, from /proc (Linux): the peak RSS of a server and its
// children during a case, and the CPU seconds it spent.
import { readFileSync } from 'node:fs';
import { descendantProcesses } from '../lib/testing/processes';

const CLOCK_TICKS = 100; // USER_HZ on Linux

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** utime+stime ticks from /proc/<pid>/stat (comm may hold spaces and parentheses). */
function stat(pid: number): { ticks: number } | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ticks: Number(fields[11]) + Number(fields[12]) };
}

/** The pid and all its descendants alive now. */
export function processTree(root: number): number[] {
  return [root, ...descendantProcesses(root)];
}

/** Resident set size in bytes (VmRSS), 0 when the process is gone. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) * 1024 : 0;
}

export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += stat(pid)?.ticks ?? 0;
  return ticks / CLOCK_TICKS;
}

export type TreeUsage = {
  /** Largest single process RSS seen (the "per service process" figure). */
  peakProcessRssMb: number;
  /** Largest sum over the tree seen. */
  peakTreeRssMb: number;
  cpuSeconds: number;
};

/**
 * Samples the RSS of each watched tree every `intervalMs` (the tree itself is re-read every
 * second) until stopped; CPU seconds are the difference of the tree's counters.
 */
export function startSampler(roots: Record<string, number>, intervalMs = 100) {
  // CPU per pid: the counter when first seen and the last reading. A process that exits during
  // the case (an idle pool connection closing) keeps what it had used until its last reading.
  const state = Object.fromEntries(
    Object.entries(roots).map(([name, pid]) => {
      const pids = processTree(pid);
      const first = new Map(pids.map((p) => [p, stat(p)?.ticks ?? 0]));
      return [name, { root: pid, pids, first, last: new Map(first), peakProcess: 0, peakTree: 0 }];
    }),
  );
  let ticks = 0;
  const sample = () => {
    ticks++;
    for (const s of Object.values(state)) {
      if (ticks % Math.max(1, Math.round(1000 / intervalMs)) === 0) {
        s.pids = processTree(s.root);
        for (const pid of s.pids) if (!s.first.has(pid)) s.first.set(pid, 0);
      }
      let tree = 0;
      for (const pid of s.pids) {
        const rss = rssBytes(pid);
        tree += rss;
        s.peakProcess = Math.max(s.peakProcess, rss);
        const t = stat(pid)?.ticks;
        if (t !== undefined) s.last.set(pid, t);
      }
      s.peakTree = Math.max(s.peakTree, tree);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop(): Record<string, TreeUsage> {
      clearInterval(timer);
      sample();
      return Object.fromEntries(
        Object.entries(state).map(([name, s]) => {
          let used = 0;
          for (const [pid, start] of s.first) used += (s.last.get(pid) ?? start) - start;
          return [name, { peakProcessRssMb: s.peakProcess / 2 ** 20, peakTreeRssMb: s.peakTree / 2 ** 20, cpuSeconds: used / CLOCK_TICKS }];
        }),
      );
    },
  };
}
