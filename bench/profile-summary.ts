// Summarises V8 .cpuprofile files (node --cpu-prof) by self time: per function and per
// "where" (a package, a folder of our code, node internals, GC). Positions in Next's bundles
// are mapped back to their sources through the build's source maps.
// `node --import tsx bench/profile-summary.ts <file.cpuprofile>…`
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type ProfileSummary = {
  /** False when the samples could not be cut to the measured window (the whole life is shown). */
  windowed: boolean;
  files: number;
  totalMs: number;
  byCategory: { name: string; ms: number; percent: number }[];
  byFunction: { name: string; location: string; category: string; ms: number; percent: number }[];
};

const maps = new Map<string, SourceMap | null>();

function sourceMapFor(url: string): SourceMap | null {
  if (maps.has(url)) return maps.get(url)!;
  let map: SourceMap | null = null;
  try {
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  } catch {
    map = null;
  }
  maps.set(url, map);
  return map;
}

/** The original source and line of a frame, when a source map knows it. */
function original(frame: CallFrame): { source: string; line: number } | null {
  if (!frame.url.includes('/.next/')) return null;
  const map = sourceMapFor(frame.url);
  if (!map) return null;
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number };
  if (!entry?.originalSource) return null;
  return { source: safeDecode(entry.originalSource).replace(/^turbopack:\/\/\/?(\[project\]\/)?/, '').replace(/^file:\/\/.*?\/node_modules\//, 'node_modules/'), line: (entry.originalLine ?? 0) + 1 };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function packageOf(source: string): string | null {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/dist\/compiled\/((?:@[^/]+\/)?[^/]+))?/.exec(source);
  if (!m) return null;
  return m[2] ? `${m[1]} (bundled ${m[2]})` : m[1];
}

function categorize(frame: CallFrame, mapped: { source: string } | null): string {
  const name = frame.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return 'V8/native (program)';
  const source = safeDecode(mapped?.source ?? frame.url);
  if (!source) return 'V8/native';
  if (source.startsWith('node:')) return `node:${source.replace(/^node:(internal\/)?/, '').split('/')[0]}`;
  const pkg = packageOf(source);
  if (pkg) return pkg;
  const project = /(?:^|\/)(lib\/[^/]+|app\/v1|app|scripts|instrumentation)/.exec(source);
  if (project) return `ours: ${project[1]}`;
  if (source.includes('/.next/')) return 'next build output (unmapped)';
  return source.split('/').slice(-2).join('/');
}

/** `windowsMicros`: only samples taken in one of these [from, to] of CLOCK_MONOTONIC (V8's profile clock), in µs. */
export function summarizeProfiles(files: string[], windowsMicros?: [number, number][]): ProfileSummary {
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, { name: string; location: string; category: string; ms: number }>();
  let totalMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const selfMicros = new Map<number, number>();
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at += profile.timeDeltas[i];
      if (windowsMicros && !windowsMicros.some(([from, to]) => at >= from && at <= to)) continue;
      const delta = profile.timeDeltas[i + 1] ?? 0; // time until the next sample belongs to this one
      selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + delta);
    }
    for (const [id, micros] of selfMicros) {
      const node = nodes.get(id);
      if (!node) continue;
      const ms = micros / 1000;
      const mapped = original(node.callFrame);
      const category = categorize(node.callFrame, mapped);
      if (category === 'idle') continue;
      totalMs += ms;
      byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
      const location = mapped
        ? `${mapped.source}:${mapped.line}`
        : node.callFrame.url
          ? `${node.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|\.next)\//, '$1/')}:${node.callFrame.lineNumber + 1}`
          : '';
      const name = node.callFrame.functionName || '(anonymous)';
      const key = `${name}@${location}`;
      const entry = byFunction.get(key) ?? { name, location, category, ms: 0 };
      entry.ms += ms;
      byFunction.set(key, entry);
    }
  }
  if (windowsMicros && totalMs === 0) return { ...summarizeProfiles(files), windowed: false };
  const pct = (ms: number) => (totalMs ? (100 * ms) / totalMs : 0);
  return {
    windowed: Boolean(windowsMicros),
    files: files.length,
    totalMs,
    byCategory: [...byCategory].map(([name, ms]) => ({ name, ms, percent: pct(ms) })).sort((a, b) => b.ms - a.ms),
    byFunction: [...byFunction.values()].map((f) => ({ ...f, percent: pct(f.ms) })).sort((a, b) => b.ms - a.ms).slice(0, 200),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = summarizeProfiles(process.argv.slice(2));
  console.log(`busy ${summary.totalMs.toFixed(0)} ms over ${summary.files} profile(s)\n`);
  for (const c of summary.byCategory.slice(0, 25)) console.log(`${c.percent.toFixed(1).padStart(5)}%  ${c.name}`);
  console.log('');
  for (const f of summary.byFunction.slice(0, 40)) console.log(`${f.percent.toFixed(1).padStart(5)}%  ${f.name}  ${f.location}`);
}
