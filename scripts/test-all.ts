// `npm test`: every test, in two rounds that share the machine's cores (most of these tests wait
// on PostgreSQL, webhook receivers, servers and browsers):
// 1. unit and in-process integration (Vitest: `npm run test:fast`, no build, no server), beside
//    the same service behind PgBouncer (project `pgbouncer`) and the production build;
// 2. the browser tests (Playwright with Debian's Chromium), beside what lives at the socket
//    against production servers (project `http`);
// then one plain summary line. Output of what runs beside is shown whole once it ends.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');
const httpJson = path.join(results, 'vitest-http.json');
const pgbouncerJson = path.join(results, 'vitest-pgbouncer.json');
const playwrightJson = path.join(results, 'playwright.json');
for (const file of [vitestJson, httpJson, pgbouncerJson, playwrightJson]) rmSync(file, { force: true });

const node = (...args: string[]) => [process.execPath, ...args];
const vitest = (projects: string[], json: string) =>
  node(
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  );

/** Runs a command with its output on the terminal, or (`aside`) in a file shown once it ends. */
function run([command, ...args]: string[], aside?: string): Promise<number | null> {
  if (!aside) return new Promise((resolve) => spawn(command, args, { cwd: root, stdio: 'inherit' }).on('close', resolve));
  const output = createWriteStream(path.join(results, aside));
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  return new Promise((resolve) => child.on('close', (code) => output.end(() => resolve(code))));
}
const show = (aside: string) => {
  const file = path.join(results, aside);
  if (existsSync(file)) process.stdout.write(readFileSync(file));
};

// Each Vitest project's global setup writes process.env (TEST_DATABASE_URL, …), which its test
// workers inherit: one invocation per setup.
const pgbouncerInstall = await run(['bash', path.join(root, 'scripts/install-pgbouncer.sh')]);
const firstRound = {
  pgbouncer: pgbouncerInstall === 0 ? run(vitest(['pgbouncer'], pgbouncerJson), 'pgbouncer.out') : Promise.resolve(pgbouncerInstall),
  build: run(node('--import', 'tsx', path.join(root, 'scripts/ensure-build.ts')), 'build.out'),
  fast: run(vitest(['unit', 'integration'], vitestJson)),
};
const fast = await firstRound.fast;
const pgbouncer = await firstRound.pgbouncer;
show('pgbouncer.out');
const build = await firstRound.build;
show('build.out');

const secondRound = {
  http: build === 0 ? run(vitest(['http'], httpJson), 'http.out') : Promise.resolve(build),
  playwright: build === 0 ? run(node(path.join(root, 'node_modules/@playwright/test/cli.js'), 'test')) : Promise.resolve(build),
};
const playwright = await secondRound.playwright;
const http = await secondRound.http;
show('http.out');

let passed = 0;
let failed = 0;
for (const json of [vitestJson, httpJson, pgbouncerJson]) {
  if (!existsSync(json)) continue;
  const report = JSON.parse(readFileSync(json, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
if (existsSync(playwrightJson)) {
  const report = JSON.parse(readFileSync(playwrightJson, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
const allRan = [fast, pgbouncer, build, http, playwright].every((code) => code === 0);
process.exit(allRan && failed === 0 && passed > 0 ? 0 : 1);
