// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type RequestParams = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
    type Request = RequestParams & {
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    };
    type Options = {
      url: string;
      connections?: number;
      pipelining?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
      requests?: Request[];
    };
    type Histogram = { average: number; p50: number; p99: number; max: number };
    type Result = { duration: number; latency: Histogram; non2xx: number; errors: number; timeouts: number };
    type Instance = EventEmitter & PromiseLike<Result>;
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
