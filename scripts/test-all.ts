// `npm test`: every test — unit and in-process integration (Vitest: `npm run test:fast`, no build,
// no server), what lives at the socket against a production server (project `http`), the service
// behind PgBouncer (project `pgbouncer`), then the browser tests (Playwright with Debian's
// Chromium) — and one plain summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');
const httpJson = path.join(results, 'vitest-http.json');
const pgbouncerJson = path.join(results, 'vitest-pgbouncer.json');
const playwrightJson = path.join(results, 'playwright.json');
for (const file of [vitestJson, httpJson, pgbouncerJson, playwrightJson]) rmSync(file, { force: true });

const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;
const runVitest = (projects: string[], json: string) =>
  run([
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);

const vitest = runVitest(['unit', 'integration'], vitestJson);
// Runs of their own: each project's global setup writes process.env (TEST_DATABASE_URL, …),
// which test workers inherit.
const http = runVitest(['http'], httpJson);
spawnSync('bash', [path.join(root, 'scripts/install-pgbouncer.sh')], { cwd: root, stdio: 'inherit' });
const pgbouncer = runVitest(['pgbouncer'], pgbouncerJson);
const playwright = run([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test']);

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
process.exit(vitest === 0 && http === 0 && pgbouncer === 0 && playwright === 0 && failed === 0 && passed > 0 ? 0 : 1);
