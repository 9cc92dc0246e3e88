// The production build, unless the last one is newer than every source (scripts/test-all.ts
// makes it beside the tests that need none).
import path from 'node:path';
import { ensureBuild } from './support/next-server';

ensureBuild(path.resolve(import.meta.dirname, '..'));
