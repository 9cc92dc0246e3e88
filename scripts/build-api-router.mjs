// Bundles app/api-router.ts (every /v1 route, behind the router that scripts/serve.mjs hands
// /v1 requests to) into .next/api-router.mjs, after `next build` (which empties .next).
// Packages stay external: they load from node_modules as they do for Next's build.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

export async function buildApiRouter() {
  // The route table must be what the route files make.
  const check = spawnSync(process.execPath, [path.join(root, 'scripts/route-table.mjs'), '--check'], { stdio: 'inherit' });
  if (check.status !== 0) throw new Error('the route table is out of date');
  await build({
    absWorkingDir: root,
    entryPoints: ['app/api-router.ts'],
    outfile: '.next/api-router.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildApiRouter();
