// Serves the production build: a cluster of Next.js servers sharing one port, one per core (half
// the cores when PostgreSQL is on this machine: defaultWorkers in http-edge.mjs). Plain JavaScript so
// that nothing transforms code at run time. Each worker also runs the in-process job runner
// (instrumentation.ts); claims in PostgreSQL keep them from colliding.
import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import next from 'next';
import { ApiServerResponse, answeredAtEdge, configureServer, httpTimeouts, isApiPath, serveApi, serveSettings } from './http-edge.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Read once, in every process, so that a bad setting stops the start instead of a worker (the
// rest are checked by each server process as it starts: instrumentation.ts).
let settings;
try {
  settings = { ...serveSettings(), timeouts: httpTimeouts() };
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const { port, hostname, workers, heapMb, youngMb, timeouts } = settings;

// Always a primary with its workers, one included: the heap flags below apply, and a worker that
// dies is replaced.
if (cluster.isPrimary) {
  let stopping = false;
  // A bounded heap (heapMb) keeps each process small: V8 collects sooner instead of growing to its
  // default. A larger young generation (youngMb) lets a request's short-lived objects die there
  // instead of being promoted, so the old generation (whose collections pause longest) fills more slowly.
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-old-space-size=${heapMb}`, `--max-semi-space-size=${youngMb}`] });
  for (let i = 0; i < workers; i++) cluster.fork();
  const listening = new Set();
  cluster.on('listening', (worker) => listening.add(worker.id));
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    // A worker that never got to listen fails at start (a malformed setting, instrumentation.ts):
    // another would fail alike, so the start stops here instead of forking forever.
    if (!listening.has(worker.id)) {
      console.error(`worker ${worker.process.pid} exited (${code}) before it could serve; stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exit(1);
    }
    console.error(`worker ${worker.process.pid} exited (${code}); starting another`);
    cluster.fork();
  });
  // The primary is the last to stop: it exits once every worker has exited (each finishes its
  // webhook sends in flight first), or after 25 s, when it kills those left so that none outlives it.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead());
    let left = running.length;
    if (left === 0) process.exit(0);
    cluster.on('exit', () => {
      if (--left <= 0) process.exit(0);
    });
    for (const worker of running) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL');
      process.exit(0);
    }, 25_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  // A worker whose primary is gone (killed) must not linger holding the port.
  process.on('disconnect', () => process.exit(0));
  const app = next({ dev: false, dir: root, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const apiRouter = await loadApiRouter();
  const server = http.createServer(
    // Timeouts are checked every second instead of Node's 30 s, so that they hold to the second.
    { ServerResponse: ApiServerResponse, connectionsCheckingInterval: 1000 },
    (request, response) => {
      if (answeredAtEdge(request, response)) return;
      // The API is the router's alone; Next serves the portal, the hosted page and its own routes.
      if (isApiPath(request.url ?? '/')) void serveApi(apiRouter, request, response);
      else handle(request, response);
    },
  );
  configureServer(server, timeouts, { router: () => apiRouter });
  // A port it cannot have stops the start (Next.js would log the error and go on without listening).
  const refuseStart = (error) => {
    const taken = error.code === 'EADDRINUSE' ? ': another process holds it (set PORT to a free port)' : '';
    console.error(`cannot listen on ${hostname}:${port}${taken}: ${error.message}`);
    process.exit(1);
  };
  server.once('error', refuseStart);
  server.listen(port, hostname, () => {
    server.off('error', refuseStart);
    if (cluster.worker?.id === 1) console.log(`Ready on http://${hostname}:${port} (${workers} process${workers > 1 ? 'es' : ''}, Node ${process.version})`);
  });
  // The job runner (instrumentation.ts) hands back unsent deliveries and finishes the sends in
  // flight (at most one 10 s attempt); the process waits for it and for the requests in
  // progress, within a bound.
  const close = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    // The job runner's own SIGTERM listener (instrumentation.ts) runs in this same emit: after it.
    await new Promise((resolve) => setImmediate(resolve));
    // lib/process/state.ts: the process's state, under one key of globalThis.
    const state = globalThis[Symbol.for('quote-pricing-service.process-state')];
    const jobsStopped = state?.jobsStopped ?? Promise.resolve();
    // Open event streams end (their listeners reconnect after their last event) and free their places.
    const streamsStopped = state?.stopEventStreams?.() ?? Promise.resolve();
    await Promise.race([Promise.all([closed, jobsStopped, streamsStopped]), new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

/** The API's router (app/api-router.ts), bundled by `npm run build`. */
async function loadApiRouter() {
  const bundle = path.join(root, '.next/api-router.mjs');
  try {
    return (await import(pathToFileURL(bundle).href)).apiRouter;
  } catch (error) {
    throw new Error(`${bundle} is missing or broken: run \`npm run build\` (${error.message})`);
  }
}
