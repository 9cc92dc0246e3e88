// `npm test`: every test — unit and integration (Vitest) — then a plain summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');

const vitest = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
const ok = vitest.status === 0 && failed === 0 && passed > 0;
console.log(`\nvitest: ${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
