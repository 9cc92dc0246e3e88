// `npm run dev`: the service while you change it — the embedded database and the demo as
// `npm start` makes them, one process, Next.js in development mode for the portal and the
// hosted page (its own hot reload), and the API's router for /v1 loaded from the TypeScript
// sources, loaded again after any change under app/ or lib/ (the next request uses the new code).
// First: the settings are checked before any other module loads (scripts/support/settings-at-start.ts).
import { configured } from './support/settings-at-start';
import exitHook from 'async-exit-hook';
import { watch } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { tsImport } from 'tsx/esm/api';
// @ts-expect-error: plain JavaScript, shared with scripts/serve.mjs
import { ApiServerResponse, answeredAtEdge, configureServer, httpTimeouts, isApiPath, serveApi } from './http-edge.mjs';
import { forgetSettings } from '../lib/settings/settings';
import { prepareService, printWelcome } from './support/service-setup';
import { writeRouteTable } from './route-table.mjs';

const root = path.resolve(import.meta.dirname, '..');
const port = configured.PORT;
const hostname = configured.HOST ?? 'localhost';

type ApiRouter = { handle(request: Request): Promise<Response> };

async function main() {
  const { database, demo, demoFile, env } = await prepareService(root, port);
  // The router and the pages run in this process: it is the service.
  Object.assign(process.env, env, { JOB_RUNNER: configured.JOB_RUNNER ?? 'in-process' });
  forgetSettings();
  const app = next({ dev: true, dir: root, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  // A fresh module graph per load (tsx gives each import its own namespace); state a process
  // keeps (the database pool, the request-log writer) lives in lib/process/state.ts and
  // survives the reload.
  let router: Promise<ApiRouter> | null = null;
  const apiRouter = () => (router ??= tsImport('../app/api-router.ts', import.meta.url).then((m: { apiRouter: ApiRouter }) => m.apiRouter));
  // A route file added or removed: the table of route files is written again (it is generated).
  writeRouteTable();
  for (const folder of ['app', 'lib']) {
    watch(path.join(root, folder), { recursive: true }, (_event, file) => {
      if (file && /\.tsx?$/.test(file) && !file.includes('generated')) router = null;
      if (folder === 'app' && file && /(^|[\\/])route\.ts$/.test(file)) writeRouteTable();
    });
  }

  const server = http.createServer({ ServerResponse: ApiServerResponse }, (request, response) => {
    if (answeredAtEdge(request, response)) return;
    if (isApiPath(request.url ?? '/')) {
      void apiRouter().then(
        (loaded) => serveApi(loaded, request, response),
        (error: unknown) => {
          // A change that does not compile: say so, and keep serving the pages.
          console.error(error);
          router = null;
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { code: 'internal_error', message: `The API does not load: ${String(error)}` } }));
        },
      );
    } else void handle(request, response);
  });
  configureServer(server, httpTimeouts(), { router: apiRouter });
  await new Promise<void>((resolve) => server.listen(port, hostname, resolve));
  printWelcome(`http://${hostname}:${port}`, database, demo, demoFile);
  console.log('  Development mode: changes under app/ and lib/ apply on the next request.');

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
  const stop = async () => {
    server.close();
    await app.close();
    await database.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
