// Runs on `npm install`: generates the Prisma client (git-ignored) without the native schema
// engine, which cannot be downloaded on our machines (see ../shared/STACK-NOTES.md).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const cli = 'node_modules/prisma/build/index.js';
if (!existsSync(cli)) process.exit(0);
execFileSync(process.execPath, [cli, 'generate'], {
  stdio: 'inherit',
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
