// Bundles app/direct-routes.ts (the routes scripts/serve.mjs answers without Next.js) into
// .next/direct-routes.mjs, after `next build` (which empties .next). Packages stay external:
// they load from node_modules as they do for Next's build.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

export async function buildDirectRoutes() {
  await build({
    absWorkingDir: root,
    entryPoints: ['app/direct-routes.ts'],
    outfile: '.next/direct-routes.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildDirectRoutes();
