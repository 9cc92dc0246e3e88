import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveDataRoot } from './embedded';

// PostgreSQL runs as the `postgres` OS user when we are root, and must be able to enter every
// folder above its data: a clone under a private folder (such as /root) must still start.
describe('resolveDataRoot', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'data-root-test-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('uses <clone>/.data when the postgres user can reach it', () => {
    chmodSync(base, 0o755);
    const clone = path.join(base, 'open-clone');
    mkdirSync(clone, { recursive: true });
    expect(resolveDataRoot(clone)).toBe(path.join(clone, '.data'));
  });

  it('moves to a per-clone folder under the temp dir when a parent is private (as root)', () => {
    const privateParent = path.join(base, 'private');
    const clone = path.join(privateParent, 'clone');
    mkdirSync(clone, { recursive: true });
    chmodSync(privateParent, 0o700);
    const root = resolveDataRoot(clone);
    if (process.getuid?.() === 0) {
      expect(root.startsWith(os.tmpdir())).toBe(true);
      expect(root).not.toContain(privateParent);
      expect(resolveDataRoot(clone)).toBe(root); // stable for the same clone
      expect(resolveDataRoot(path.join(base, 'open-clone'))).not.toBe(root);
    } else {
      // without root, PostgreSQL runs as us and can use the clone's own folder
      expect(root).toBe(path.join(clone, '.data'));
    }
  });
});

describe('loading the embedded database', () => {
  // A process that ends by itself keeps its exit code (the test runner's, after failing tests).
  it('leaves the exit code of a process that ends by itself alone', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', "await import('./lib/db/embedded.ts'); process.exitCode = 3;"], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  });
});
