// Serves the production build on every core: a cluster of Next.js servers sharing one port.
// Plain JavaScript so that nothing transforms code at run time. Each worker also runs the
// in-process job runner (instrumentation.ts); claims in PostgreSQL keep them from colliding.
import cluster from 'node:cluster';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import next from 'next';
import { ApiServerResponse, answeredAtEdge, configureServer, httpTimeouts } from './http-edge.mjs';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const workers = Number(process.env.WEB_CONCURRENCY ?? os.availableParallelism());
// Read once, in every process, so that a bad setting stops the start instead of a worker.
const timeouts = httpTimeouts();

if (cluster.isPrimary && workers > 1) {
  let stopping = false;
  // A bounded heap keeps each process small: V8 collects sooner instead of growing to its default.
  const heapMb = Number(process.env.SERVICE_MAX_HEAP_MB ?? 320);
  // A larger young generation lets a request's short-lived objects die there instead of being
  // promoted, so the old generation (whose collections pause longest) fills more slowly.
  const youngMb = Number(process.env.SERVICE_SEMI_SPACE_MB ?? 32);
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-old-space-size=${heapMb}`, `--max-semi-space-size=${youngMb}`] });
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited (${code}); starting another`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // Workers finish their webhook sends in flight (serve.mjs below) before they exit.
    setTimeout(() => process.exit(0), 25_000).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  // A worker whose primary is gone (killed) must not linger holding the port.
  if (cluster.isWorker) process.on('disconnect', () => process.exit(0));
  const app = next({ dev: false, dir: root, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer(
    // Timeouts are checked every second instead of Node's 30 s, so that they hold to the second.
    { ServerResponse: ApiServerResponse, connectionsCheckingInterval: 1000 },
    (request, response) => {
      if (!answeredAtEdge(request, response)) handle(request, response);
    },
  );
  configureServer(server, timeouts);
  server.listen(port, hostname, () => {
    if (cluster.isPrimary || cluster.worker?.id === 1) console.log(`Ready on http://${hostname}:${port} (${workers} process${workers > 1 ? 'es' : ''}, Node ${process.version})`);
  });
  // The job runner (instrumentation.ts) hands back unsent deliveries and finishes the sends in
  // flight (at most one 10 s attempt); the process waits for it, within a bound.
  const close = () =>
    server.close(async () => {
      const jobsStopped = globalThis.__quoteServiceJobsStopped ?? Promise.resolve();
      await Promise.race([jobsStopped, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
      process.exit(0);
    });
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}
