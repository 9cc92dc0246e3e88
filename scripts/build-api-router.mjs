// Bundles app/api-router.ts (every /v1 route, behind the router that scripts/serve.mjs hands
// /v1 requests to) into .next/api-router.mjs, after `next build` (which empties .next).
// Packages stay external: they load from node_modules as they do for Next's build.
import path from 'node:path';
import { build } from 'esbuild';
import { writeRouteTable } from './route-table.mjs';

const root = path.resolve(import.meta.dirname, '..');

export async function buildApiRouter() {
  // The table of the route files as they are now (it is generated, never committed).
  writeRouteTable();
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
