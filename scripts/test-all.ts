// `npm test`: every test — unit and integration (Vitest), then the browser tests
// (Playwright with Debian's Chromium) — and one plain summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');
const playwrightJson = path.join(results, 'playwright.json');
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;

const vitest = run([
  path.join(root, 'node_modules/vitest/vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const playwright = run([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test']);

let passed = 0;
let failed = 0;
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
if (existsSync(playwrightJson)) {
  const report = JSON.parse(readFileSync(playwrightJson, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(vitest === 0 && playwright === 0 && failed === 0 && passed > 0 ? 0 : 1);
