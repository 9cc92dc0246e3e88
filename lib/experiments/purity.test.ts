import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The statistics are pure, as the pricing engine is (STYLE.md habit 7): they import only each
 * other, and read no clock, randomness, environment or I/O. Other files of lib/experiments (the
 * store, the verbs) may use the database; these may not.
 */
const PURE = ['confidence-sequence.ts', 'statistics.ts', 'plain-words.ts'];
const ALLOWED_IMPORT = /^\.\/(confidence-sequence|statistics|plain-words)$/;
const IMPURE = [
  { pattern: /\bnew Date\(|\bDate\.now\(|\bperformance\.now\(/, what: 'reads the clock' },
  { pattern: /\bMath\.random\(/, what: 'uses randomness' },
  { pattern: /\bprocess\./, what: 'reads the process' },
  { pattern: /\b(fetch|setTimeout|setInterval|setImmediate)\(/, what: 'does I/O or schedules work' },
  { pattern: /\brequire\(|\bimport\(/, what: 'loads modules at run time' },
];

describe('the experiment statistics are pure', () => {
  it.each(PURE)('%s imports only its siblings and reads no clock, randomness, environment or I/O', (file) => {
    const text = readFileSync(path.join(import.meta.dirname, file), 'utf8');
    const imports = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(imports.filter((specifier) => !ALLOWED_IMPORT.test(specifier))).toEqual([]);
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(IMPURE.filter(({ pattern }) => pattern.test(code)).map(({ what }) => what)).toEqual([]);
  });
});
