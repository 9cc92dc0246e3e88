import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpCase } from './cases/http';
import { routeFamilyTable, writeRouteFamilies } from './route-families';

/** A measured case as the http group leaves it; only what the table reads is filled in. */
function measured(group: HttpCase['group'], name: string, connections: number, vs?: { throughput: number; p99: number; cpu: number; reference: string }): HttpCase {
  return { name, group, connections, vsReference: vs, result: {} as HttpCase['result'], usage: {}, outboxBacklog: 0 };
}

const cases: HttpCase[] = [
  measured('reference', 'reference POST /quote', 8),
  measured('reference', 'reference POST /quote', 32),
  measured('quotes', 'POST /v1/quotes', 8, { throughput: 0.812, p99: 1.4, cpu: 1.25, reference: 'reference POST /quote @ 8' }),
  measured('quotes', 'POST /v1/quotes', 32, { throughput: 0.9, p99: 1.61, cpu: 1.1, reference: 'reference POST /quote @ 32' }),
  measured('trace', 'GET /v1/quote-intents/{id}/trace (a read)', 32, { throughput: 0.47, p99: 2.21, cpu: 2.16, reference: 'reference GET /trace/{id} @ 32' }),
];

describe('the table of route families against their reference', () => {
  it('has a row per family of ours and a column per concurrency measured, "–" where a family was not measured', () => {
    const lines = routeFamilyTable(cases).split('\n');
    expect(lines[0]).toBe('| Route family | Against | 8 conns | 32 conns |');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('| POST /v1/quotes | reference POST /quote | 0.81× req/s, p99 1.40×, CPU 1.25× | 0.90× req/s, p99 1.61×, CPU 1.10× |');
    expect(lines[3]).toBe('| GET /v1/quote-intents/{id}/trace (a read) | reference GET /trace/{id} | – | 0.47× req/s, p99 2.21×, CPU 2.16× |');
  });

  it('replaces only the block between its markers, and refuses a document without them', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'route-families-')), 'performance.md');
    const start = '<!-- route-families:start (written by `npm run bench -- --only http --write-docs`) -->';
    writeFileSync(file, `# Before\n\n${start}\nan old table\n<!-- route-families:end -->\n\n## After\n`);
    writeRouteFamilies(cases, { finishedAt: '2026-12-03T06:40:00.000Z', loadStart: '0.5', loadEnd: '1.2' }, file);
    const doc = readFileSync(file, 'utf8');
    expect(doc.startsWith(`# Before\n\n${start}\nRun finished 2026-12-03 06:40 UTC; load average at start 0.5, at end 1.2.`)).toBe(true);
    expect(doc).not.toContain('an old table');
    expect(doc).toContain('| POST /v1/quotes | reference POST /quote |');
    expect(doc.endsWith('<!-- route-families:end -->\n\n## After\n')).toBe(true);

    writeFileSync(file, '# No block\n');
    expect(() => writeRouteFamilies(cases, { finishedAt: '2026-12-03T06:40:00.000Z', loadStart: '0', loadEnd: '0' }, file)).toThrow(/no <!-- route-families:start/);
  });
});
