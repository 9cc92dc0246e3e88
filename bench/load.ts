// The load generator, run as its own process by bench/processes.ts so that it never shares an event
// loop with a server: autocannon, a warm-up run, then the measured run. Every response time is
// kept (autocannon's 'response' event), so p50/p95/p99 are exact, not histogram buckets.
// `node --import tsx bench/load.ts <spec.json> <result.json>`
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { summarize, type LatencySummary } from './stats';

/** One request shape; `variants` are cycled per request (path, headers and body fields). */
export type LoadSpec = {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  variants?: { path?: string; headers?: Record<string, string>; body?: Record<string, unknown> }[];
  /** Body field that gets a fresh value per request: `${prefix}-${counter}`. */
  uniqueField?: string;
  /** Headers that get a fresh value per request: `{n}` in the value is replaced by `${prefix}-${counter}` (a subject, a cookie). */
  uniqueHeaders?: Record<string, string>;
  connections: number;
  /** Measured run: by duration, or by a number of requests (`amount`). */
  durationSec?: number;
  amount?: number;
  warmupSec?: number;
  warmupAmount?: number;
  timeoutSec?: number;
  /** Return every latency of the measured run, so that several runs can be pooled. */
  keepLatencies?: boolean;
};

export type LoadResult = {
  connections: number;
  requests: number;
  durationSec: number;
  requestsPerSecond: number;
  /** Over every response (ms). */
  latency: LatencySummary;
  /** autocannon's own histogram figures (2xx only), for comparison; absent for pooled runs. */
  autocannon?: { p50: number; p99: number; average: number };
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The first non-2xx answer's body, to explain a failure. */
  firstFailure?: string;
  /** The first 2xx answer's body (truncated), for setups that need an id from it. */
  firstSuccess?: string;
  startedAt: number;
  endedAt: number;
  /** Every latency (ms) of the measured run, with `keepLatencies`. */
  latencies?: number[];
};

export async function runLoad(spec: LoadSpec, measured: boolean, prefix: string): Promise<LoadResult> {
  let counter = 0;
  let variant = 0;
  const statusCounts: Record<string, number> = {};
  const latencies: number[] = [];
  let firstFailure: string | undefined;
  let firstSuccess: string | undefined;
  const baseHeaders = { 'content-type': 'application/json', ...spec.headers };
  const needsSetup = Boolean(spec.variants?.length || spec.uniqueField || spec.uniqueHeaders);
  const staticBody = spec.body ? JSON.stringify(spec.body) : undefined;

  const request: autocannon.Request = {
    method: spec.method,
    path: spec.path,
    headers: baseHeaders,
    body: staticBody,
    ...(needsSetup && {
      setupRequest: (req: autocannon.RequestParams) => {
          const v = spec.variants?.length ? spec.variants[variant++ % spec.variants.length] : undefined;
          const body = spec.body || v?.body ? { ...spec.body, ...v?.body } : undefined;
          const unique = `${prefix}-${counter++}`;
          if (body && spec.uniqueField) body[spec.uniqueField] = unique;
          const fresh = spec.uniqueHeaders ? Object.fromEntries(Object.entries(spec.uniqueHeaders).map(([name, value]) => [name, value.replaceAll('{n}', unique)])) : undefined;
          return {
            ...req,
            path: v?.path ?? spec.path,
            headers: { ...baseHeaders, ...v?.headers, ...fresh },
            body: body ? JSON.stringify(body) : undefined,
          };
        },
    }),
    onResponse: (status, body) => {
      if (status >= 200 && status < 300) {
        if (!firstSuccess) firstSuccess = body.slice(0, 20_000);
      } else if (!firstFailure) {
        firstFailure = `${status} ${body.slice(0, 500)}`;
      }
    },
  };

  const options: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    timeout: spec.timeoutSec ?? 30,
    requests: [request],
    ...(measured
      ? spec.amount
        ? { amount: spec.amount }
        : { duration: spec.durationSec ?? 10 }
      : spec.warmupAmount
        ? { amount: spec.warmupAmount }
        : { duration: spec.warmupSec ?? 3 }),
  };
  const startedAt = Date.now();
  const instance = autocannon(options);
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const endedAt = Date.now();
  const durationSec = spec.amount && measured ? (endedAt - startedAt) / 1000 : result.duration;
  return {
    connections: spec.connections,
    requests: latencies.length,
    durationSec,
    requestsPerSecond: latencies.length / durationSec,
    latency: summarize(latencies),
    autocannon: { p50: result.latency.p50, p99: result.latency.p99, average: result.latency.average },
    statusCounts,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    firstFailure,
    firstSuccess,
    startedAt,
    endedAt,
    ...(spec.keepLatencies && { latencies }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [specFile, resultFile, phase] = process.argv.slice(2);
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as LoadSpec;
  const prefix = `bench-${process.pid}-${Date.now().toString(36)}`;
  // phase "warmup" runs only the warm-up; "measure" only the measured run (run.ts samples
  // memory and CPU around it); default: both.
  if (phase !== 'measure' && (spec.warmupSec || spec.warmupAmount)) await runLoad(spec, false, `${prefix}-w`);
  if (phase !== 'warmup') {
    // Tells run.ts (over IPC) to start sampling memory and CPU now.
    process.send?.({ event: 'measuring' });
    const result = await runLoad(spec, true, prefix);
    writeFileSync(resultFile, JSON.stringify(result));
  }
}
