import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The engine is pure: the same book and answers give the same receipt anywhere, at any time.
 * So its code (tests aside) imports nothing but itself and zod, and reads no clock, no
 * randomness, no environment and no I/O.
 */
const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

const ALLOWED_IMPORT = /^(\.\/[\w-]+|zod)$/;
const IMPURE = [
  { pattern: /\bnew Date\(|\bDate\.now\(/, what: 'reads the clock' },
  { pattern: /\bperformance\.now\(/, what: 'reads the clock' },
  { pattern: /\bMath\.random\(/, what: 'uses randomness' },
  { pattern: /\bprocess\.(env|hrtime|argv)/, what: 'reads the process' },
  { pattern: /\b(fetch|setTimeout|setInterval|setImmediate)\(/, what: 'does I/O or schedules work' },
  { pattern: /\brequire\(|\bimport\(/, what: 'loads modules at run time' },
];

describe('lib/pricing is pure', () => {
  it('has source files to check', () => {
    expect(sources).toEqual(expect.arrayContaining(['evaluate.ts', 'book-artifact.ts', 'money.ts']));
  });

  it.each(sources)('%s imports only the engine and zod, and reads no clock, randomness, environment or I/O', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const imports = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(imports.filter((specifier) => !ALLOWED_IMPORT.test(specifier))).toEqual([]);
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''); // comments may mention anything
    expect(IMPURE.filter(({ pattern }) => pattern.test(code)).map(({ what }) => what)).toEqual([]);
  });
});
