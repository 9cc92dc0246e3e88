import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The arrows point down (docs/architecture.md): app/ and inngest/ are composition roots that use
 * lib/, and nothing in lib/ reaches back up to them, statically or by a dynamic import. Test
 * helpers that need the router live under test/support.
 */
const root = path.resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !entry.parentPath.includes(`${path.sep}generated`))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The modules a file names: `from '…'`, `import('…')`, `require('…')`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

describe('layering', () => {
  it('has no arrow from lib/ up to app/ or inngest/', () => {
    const files = sources('lib');
    expect(files.length).toBeGreaterThan(100);
    const upward = files.flatMap((file) =>
      specifiers(readFileSync(path.join(root, file), 'utf8'))
        .filter((spec) => {
          const target = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.posix.join(path.posix.dirname(file), spec) : null;
          return target !== null && /^(app|inngest)(\/|$)/.test(target);
        })
        .map((spec) => `${file} → ${spec}`),
    );
    expect(upward).toEqual([]);
  });
});
