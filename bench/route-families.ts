// Issue 43: every route family the http group measures, against its bare reference at each
// concurrency, as one markdown table; `--write-docs` keeps the newest in docs/performance.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isReference, type HttpCase } from './cases/http';
import { root } from './context';

const START = '<!-- route-families:start (written by `npm run bench -- --only http --write-docs`) -->';
const END = '<!-- route-families:end -->';

const x = (v: number | null | undefined) => (v == null ? '–' : `${v.toFixed(2)}×`);

/** One row per route family, one column per concurrency: req/s and p99 against the reference (and CPU a request). */
export function routeFamilyTable(cases: HttpCase[]): string {
  const concurrencies = [...new Set(cases.map((c) => c.connections))].sort((a, b) => a - b);
  const families = [...new Set(cases.filter((c) => !isReference(c.group)).map((c) => c.name))];
  const header = `| Route family | Against | ${concurrencies.map((n) => `${n} conn${n === 1 ? '' : 's'}`).join(' | ')} |`;
  const rule = `|---|---|${concurrencies.map(() => '---').join('|')}|`;
  const rows = families.map((name) => {
    const of = cases.filter((c) => c.name === name);
    const against = of.find((c) => c.vsReference)?.vsReference?.reference.replace(/ @ \d+$/, '') ?? '–';
    const cells = concurrencies.map((n) => {
      const c = of.find((one) => one.connections === n)?.vsReference;
      return c ? `${x(c.throughput)} req/s, p99 ${x(c.p99)}, CPU ${x(c.cpu)}` : '–';
    });
    return `| ${name} | ${against} | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows].join('\n');
}

/** Replaces the table between the markers in docs/performance.md with this run's, dated, with the machine's load. */
export function writeRouteFamilies(
  cases: HttpCase[],
  run: { finishedAt: string; loadStart: string; loadEnd: string },
  file = path.join(root, 'docs/performance.md'),
): string {
  const doc = readFileSync(file, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/performance.md has no ${START} … ${END} block`);
  const block = [
    START,
    `Run finished ${run.finishedAt.slice(0, 16).replace('T', ' ')} UTC; load average at start ${run.loadStart}, at end ${run.loadEnd}. Each cell: ours ÷ the reference at the same concurrency (req/s; p99; server + PostgreSQL CPU a request).`,
    '',
    routeFamilyTable(cases),
    END,
  ].join('\n');
  writeFileSync(file, doc.slice(0, from) + block + doc.slice(to + END.length));
  return path.relative(root, file);
}
