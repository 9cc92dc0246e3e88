import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The arrows point down (docs/architecture.md): app/ and inngest/ are composition roots that use
 * lib/, and nothing in lib/ reaches back up to them, statically or by a dynamic import. Test
 * helpers that need the router live under test/support. Between lib/'s domains (its folders) the
 * arrows never close a ring, so that each can be read, and changed, from the ones below it.
 */
const root = path.resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !entry.parentPath.includes(`${path.sep}generated`))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The file a specifier names, from the repository's root, or null for a package. */
function targetOf(file: string, spec: string): string | null {
  return spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.posix.join(path.posix.dirname(file), spec) : null;
}

/** A lib/ file's domain: its folder under lib/. */
const domainOf = (file: string): string | null => /^lib\/([^/]+)\//.exec(file)?.[1] ?? null;

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
          const target = targetOf(file, spec);
          return target !== null && /^(app|inngest)(\/|$)/.test(target);
        })
        .map((spec) => `${file} → ${spec}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no ring between lib/ domains (type-only imports included)', () => {
    // Every domain's arrows to other domains, with a file that draws each.
    const arrows = new Map<string, Map<string, string>>();
    for (const file of sources('lib').filter((f) => !/\.test\.tsx?$/.test(f))) {
      const from = domainOf(file)!;
      for (const spec of specifiers(readFileSync(path.join(root, file), 'utf8'))) {
        const target = targetOf(file, spec);
        const to = target && domainOf(target);
        if (!to || to === from) continue;
        if (!arrows.has(from)) arrows.set(from, new Map());
        arrows.get(from)!.set(to, `${file} → ${spec}`);
      }
    }
    // A ring exists when a domain reaches itself: report each by the path that closes it.
    const rings: string[] = [];
    for (const start of arrows.keys()) {
      const seen = new Set<string>();
      const walk = (domain: string, trail: string[]): void => {
        for (const [next, why] of arrows.get(domain) ?? []) {
          if (next === start) rings.push([...trail, why].join(', then '));
          else if (!seen.has(next)) {
            seen.add(next);
            walk(next, [...trail, why]);
          }
        }
      };
      walk(start, []);
    }
    expect(rings).toEqual([]);
  });

  it('has no file over 400 lines in lib/, app/, inngest/ or sdk/src (generated files aside)', () => {
    // A file that long holds several concerns: split it by what each part is about.
    const files = ['lib', 'app', 'inngest', 'sdk/src'].flatMap((folder) => sources(folder)).filter((file) => !/\.generated\.|\/generated\//.test(file));
    expect(files.length).toBeGreaterThan(300);
    const long = files
      .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('brings zod into the browser only for the book artifact’s schema', () => {
    // Every page pays for what its modules import, on a phone too: zod and the schemas built with
    // it (some 110 KB, and their construction) for one constant is a poor trade. The book editor
    // and the quote trace check an artifact with its one schema, on purpose; constants the
    // browser needs live in plain modules beside the schemas (lib/leads/statuses.ts…).
    const browserRoots = sources('app').filter((file) => /^\s*['"]use client['"]/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(browserRoots.length).toBeGreaterThan(50);
    const reachedFrom = new Map<string, string | null>(browserRoots.map((file) => [file, null]));
    const queue = [...browserRoots];
    const zodImports: string[] = [];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const spec of valueSpecifiers(readFileSync(path.join(root, file), 'utf8'))) {
        if (spec === 'zod' || spec.startsWith('zod/')) zodImports.push(file);
        const target = targetOf(file, spec);
        const resolved = target && sourceFileOf(target);
        if (resolved && !reachedFrom.has(resolved)) {
          reachedFrom.set(resolved, file);
          queue.push(resolved);
        }
      }
    }
    // How the browser reaches each, for the message.
    const chain = (file: string): string => {
      const trail = [file];
      for (let from = reachedFrom.get(file); from; from = reachedFrom.get(from)) trail.push(from);
      return trail.join(' ← ');
    };
    expect(reachedFrom.size).toBeGreaterThan(browserRoots.length);
    expect(zodImports.map(chain)).toEqual([chain('lib/pricing/book-artifact.ts')]);
  });

  it('links pages with IntentLink only, which prefetches on intent', () => {
    // next/link prefetches every page whose link is in view: 25–40 requests a portal page view,
    // and the API reference's page and 186 KB stylesheet from the home page.
    const pages = sources('app');
    expect(pages.length).toBeGreaterThan(100);
    const direct = pages.filter((file) => file !== 'app/_components/intent-link.tsx' && specifiers(readFileSync(path.join(root, file), 'utf8')).includes('next/link'));
    expect(direct).toEqual([]);
  });
});

/** The modules a file loads when it runs: imports and re-exports, but not those of types only. */
function valueSpecifiers(text: string): string[] {
  const fromStatements = [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s+['"]([^'"]+)['"]/gm)]
    .filter(([, typeOnly, names]) => !typeOnly && !onlyTypes(names))
    .map((match) => match[3]);
  const bare = [...text.matchAll(/(?:^import\s+|import\s*\(\s*)['"]([^'"]+)['"]/gm)].map((match) => match[1]);
  return [...fromStatements, ...bare];
}

/** `{ type A, type B }`: every name a type. */
function onlyTypes(names: string): boolean {
  const braced = /^\{([^}]*)\}$/.exec(names.trim());
  return braced !== null && braced[1].split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim()));
}

/** The source file a module path names (`.ts`, `.tsx`, or a folder's index), or null. */
function sourceFileOf(target: string): string | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`, target]) {
    if (existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return null;
}
