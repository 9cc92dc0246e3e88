// `npm test`: every test, several things at a time on the machine's cores (most of these tests
// wait on PostgreSQL, webhook receivers, servers and browsers):
// - unit and in-process integration (Vitest: `npm run test:fast`, no build, no server), then
//   together the same service behind PgBouncer (project `pgbouncer`) and what lives at the socket
//   against production servers (project `http`);
// - beside them the production build, then the browser tests (Playwright, Debian's Chromium);
// then one plain summary line. Output of what runs aside is shown whole once it ends.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

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

const started = performance.now();
/** When each part started and ended (seconds since the start), for the closing line: where the run's time went. */
const timeline: string[] = [];
const seconds = (ms: number) => (ms / 1000).toFixed(0);

/** Runs a command with its output on the terminal, or (`aside`) in a file shown once it ends. */
function run(name: string, [command, ...args]: string[], aside?: string): Promise<number | null> {
  const from = performance.now();
  const done = (code: number | null) => {
    timeline.push(`${name} ${seconds(from - started)}–${seconds(performance.now() - started)} s`);
    return code;
  };
  if (!aside) return new Promise<number | null>((resolve) => spawn(command, args, { cwd: root, stdio: 'inherit' }).on('close', resolve)).then(done);
  const output = createWriteStream(path.join(results, aside));
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  return new Promise<number | null>((resolve) => child.on('close', (code) => output.end(() => resolve(code)))).then(done);
}
const show = (aside: string) => {
  const file = path.join(results, aside);
  if (existsSync(file)) process.stdout.write(readFileSync(file));
};

// Each Vitest project's global setup writes process.env (TEST_DATABASE_URL, …), which its test
// workers inherit: one invocation per setup. What needs the build starts the moment it is there;
// the browser tests, the longest, run beside the others. Once the fast suites are done, the
// PgBouncer and HTTP suites start together: their files mostly wait (webhook receivers, leases,
// the edge's timeouts), and one after the other they left the cores half idle at the end.
const build = run('build', node('--import', 'tsx', path.join(root, 'scripts/ensure-build.ts')), 'build.out');
// The fast suites yield the cores to the build (niced): the browser tests wait on the build, and
// they are the longest.
const fastRun = run('unit and integration', ['nice', '-n', '5', ...vitest(['unit', 'integration'], vitestJson)]);
const playwrightRun = build.then((code) =>
  code === 0 ? run('browser', node(path.join(root, 'node_modules/@playwright/test/cli.js'), 'test'), 'playwright.out') : code,
);
// PgBouncer's install (apt-get on a fresh machine: mostly waiting on the network) from the start.
const pgbouncerInstall = run('pgbouncer install', ['bash', path.join(root, 'scripts/install-pgbouncer.sh')], 'pgbouncer-install.out');
const pgbouncerRun = Promise.all([fastRun, pgbouncerInstall]).then(([, installed]) =>
  installed === 0 ? run('pgbouncer', vitest(['pgbouncer'], pgbouncerJson), 'pgbouncer.out') : installed,
);
const httpRun = Promise.all([fastRun, build]).then(([, built]) => (built === 0 ? run('http', vitest(['http'], httpJson), 'http.out') : built));

// The fast suites print as they go; each of the others in one piece once the fast ones are done.
const fast = await fastRun;
const [buildCode, pgbouncer, http, playwright] = await Promise.all([
  build.then((code) => (show('build.out'), code)),
  pgbouncerRun.then((code) => (show('pgbouncer-install.out'), show('pgbouncer.out'), code)),
  httpRun.then((code) => (show('http.out'), code)),
  playwrightRun.then((code) => (show('playwright.out'), code)),
]);

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
};
const firstLine = (text = '') => stripVTControlCharacters(text).trim().split('\n')[0].slice(0, 300);
const relative = (file: string) => path.relative(root, file);
/** Why a group failed, for the end of the output (where a reader of CI's tail looks): its failed tests, or the tail of its output. */
const whyFailed: string[] = [];
const groups: { name: string; code: number | null; json?: string; aside?: string }[] = [
  { name: 'unit and integration', code: fast, json: vitestJson },
  { name: 'build', code: buildCode, aside: 'build.out' },
  { name: 'pgbouncer', code: pgbouncer, json: pgbouncerJson, aside: 'pgbouncer.out' },
  { name: 'http', code: http, json: httpJson, aside: 'http.out' },
  { name: 'browser', code: playwright, aside: 'playwright.out' },
];

let passed = 0;
let failed = 0;
for (const group of groups) {
  const report = group.json && existsSync(group.json) ? (JSON.parse(readFileSync(group.json, 'utf8')) as VitestReport) : undefined;
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
  if (group.code === 0) continue;
  const failures = (report?.testResults ?? []).flatMap((file) => [
    ...file.assertionResults.filter((t) => t.status === 'failed').map((t) => `  ${relative(file.name)} > ${t.fullName}: ${firstLine(t.failureMessages[0])}`),
    ...(file.status === 'failed' && file.message ? [`  ${relative(file.name)}: ${firstLine(file.message)}`] : []),
  ]);
  whyFailed.push(`${group.name} failed (exit code ${group.code})${report ? '' : ', without a report of its tests'}:`);
  if (failures.length > 0) whyFailed.push(...failures);
  else if (group.aside && existsSync(path.join(results, group.aside))) {
    const lines = stripVTControlCharacters(readFileSync(path.join(results, group.aside), 'utf8')).trimEnd().split('\n');
    whyFailed.push(`  the last lines of test-results/${group.aside}:`, ...lines.slice(-40).map((line) => `  | ${line}`));
  }
}
if (existsSync(playwrightJson)) {
  const report = JSON.parse(readFileSync(playwrightJson, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
}
if (whyFailed.length > 0) console.log(`\n${whyFailed.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
console.log(`time: ${timeline.join(', ')}; ${seconds(performance.now() - started)} s in all`);
const allRan = groups.every((group) => group.code === 0);
process.exit(allRan && failed === 0 && passed > 0 ? 0 : 1);
