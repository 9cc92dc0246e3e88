import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Settings are read once, by lib/settings: no other file of the service (lib/, app/, inngest/)
 * reads process.env. Tests, test support (lib/testing) and generated code aside; scripts/ and
 * sdk/ (a package of its own, whose CLI reads QPS_*) are not the service's runtime.
 */
const root = path.resolve(import.meta.dirname, '../..');
const EXEMPT = [/\.test\.tsx?$/, /^lib\/settings\//, /^lib\/testing\//, /^lib\/db\/generated\//];

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('process.env', () => {
  it('is read only by lib/settings in lib/, app/ and inngest/', () => {
    const files = ['lib', 'app', 'inngest'].flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    const readers = files.filter((file) => !EXEMPT.some((rule) => rule.test(file)) && /process\s*\.\s*env|process\[['"]env['"]\]/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(readers, 'read a setting through settings() (lib/settings/settings.ts), declared in lib/settings/catalogue.ts').toEqual([]);
  });
});

async function serveSettingsOf(env: Record<string, string>): Promise<number> {
  // @ts-expect-error: a plain .mjs script without types
  const { serveSettings } = await import('../../scripts/http-edge.mjs');
  return serveSettings(env).workers;
}

describe('the plain-JavaScript edge (scripts/http-edge.mjs, run before any TypeScript loads)', () => {
  it('parses what serve.mjs reads as lib/settings does', async () => {
    // @ts-expect-error: a plain .mjs script without types
    const { serveSettings } = await import('../../scripts/http-edge.mjs');
    const { parseSettings } = await import('../../lib/settings/settings');
    const samples = [
      {},
      { PORT: '0', HOST: '127.0.0.1', WEB_CONCURRENCY: '1', SERVICE_MAX_HEAP_MB: '16', SERVICE_SEMI_SPACE_MB: '1' },
      { PORT: '65535', WEB_CONCURRENCY: '1024', SERVICE_MAX_HEAP_MB: '1048576', SERVICE_SEMI_SPACE_MB: '1024' },
    ];
    for (const env of samples) {
      const parsed = parseSettings(env);
      const read = serveSettings(env);
      expect(read).toMatchObject({ port: parsed.PORT, hostname: parsed.HOST ?? '0.0.0.0', heapMb: parsed.SERVICE_MAX_HEAP_MB, youngMb: parsed.SERVICE_SEMI_SPACE_MB });
      if (parsed.WEB_CONCURRENCY !== undefined) expect(read.workers).toBe(parsed.WEB_CONCURRENCY);
    }
    const malformed = { PORT: ['65536', 'x'], WEB_CONCURRENCY: ['0', '1025', 'two'], SERVICE_MAX_HEAP_MB: ['15', '1048577'], SERVICE_SEMI_SPACE_MB: ['0', '1025'] };
    for (const [name, values] of Object.entries(malformed)) {
      for (const value of values) {
        expect(() => serveSettings({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^${name}: `));
        expect(() => parseSettings({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`\\n  ${name}: `));
      }
    }
  });

  it('parses the HTTP timeouts as lib/settings does', async () => {
    // @ts-expect-error: a plain .mjs script without types
    const { httpTimeouts } = await import('../../scripts/http-edge.mjs');
    const { parseSettings } = await import('../../lib/settings/settings');
    for (const env of [{}, { HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000' }]) {
      const parsed = parseSettings(env);
      expect(httpTimeouts(env)).toEqual({ headers: parsed.HTTP_HEADERS_TIMEOUT_MS, request: parsed.HTTP_REQUEST_TIMEOUT_MS, keepAlive: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS });
    }
    for (const env of [{ HTTP_REQUEST_TIMEOUT_MS: 'abc' }, { HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }, { HTTP_HEADERS_TIMEOUT_MS: '40000' }]) {
      expect(() => httpTimeouts(env)).toThrow(new RegExp(`^${Object.keys(env)[0]}: `));
      expect(() => parseSettings(env)).toThrow();
    }
  });

  it('runs one process per core, or half the cores when PostgreSQL is on this machine', async () => {
    // @ts-expect-error: a plain .mjs script without types
    const { defaultWorkers } = await import('../../scripts/http-edge.mjs');
    // No DATABASE_URL: the embedded database, on this machine.
    expect(defaultWorkers(undefined, 2)).toBe(1);
    expect(defaultWorkers('', 8)).toBe(4);
    for (const url of ['postgres://quote:x@127.0.0.1:5432/quote', 'postgresql://localhost/quote', 'postgres://[::1]:6432/q', 'postgres:///quote?host=/var/run/postgresql']) {
      expect(defaultWorkers(url, 2), url).toBe(1);
      expect(defaultWorkers(url, 1), url).toBe(1);
    }
    for (const url of ['postgres://quote:x@db.internal:5432/quote', 'postgres://10.0.0.5/quote']) expect(defaultWorkers(url, 2), url).toBe(2);
    // WEB_CONCURRENCY still decides when set.
    expect(await serveSettingsOf({ DATABASE_URL: 'postgres://127.0.0.1/q', WEB_CONCURRENCY: '3' })).toBe(3);
  });
});
