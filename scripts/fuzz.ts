// `npm run fuzz -- --per-route 10000 [--seed N]`: the body fuzzer of the test suite
// (test/api/body-fuzz.integration.test.ts) with more cases, against its own fresh database and
// production build; prints the tally and leaves it in test-results/fuzz-summary.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'per-route': { type: 'string', default: '1000' }, seed: { type: 'string' } } });
const perRoute = Number(values['per-route']);
if (!Number.isInteger(perRoute) || perRoute < 1) throw new Error('--per-route takes a whole number of cases');

const started = Date.now();
const run = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'integration', 'test/api/body-fuzz.integration.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_PER_ROUTE: String(perRoute), ...(values.seed ? { FUZZ_SEED: values.seed } : {}) } },
);
const summaryFile = path.join(root, 'test-results/fuzz-summary.json');
if (existsSync(summaryFile)) {
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as {
    perRoute: number;
    seed: number;
    total: number;
    fiveHundreds: number;
    answered: number;
    withoutRow: number;
    tallies: { route: string; requests: number; statuses: Record<string, number>; failures: unknown[] }[];
  };
  console.log(`\nfuzz: ${summary.total} requests over ${summary.tallies.length} routes (${summary.perRoute} each, seed ${summary.seed}) in ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`5xx answers: ${summary.fiveHundreds}; answers outside the envelope or without x-request-id: ${summary.tallies.reduce((n, t) => n + t.failures.length, 0)}`);
  console.log(`request-log rows: ${summary.answered - summary.withoutRow} of ${summary.answered} answered requests (${summary.withoutRow} missing)`);
  for (const t of summary.tallies) {
    const statuses = Object.entries(t.statuses).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`  ${t.route.padEnd(64)} ${statuses}`);
  }
}
process.exit(run.status ?? 1);
