import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findFreePort } from '../../lib/db/embedded';
import { createTenant, quoteRequest } from '../../lib/testing/factories';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';

/**
 * In production every /v1 request is the router's (app/api-router.ts): Next.js serves the
 * portal and the hosted page and never loads a /v1 route module. A probe loaded into the
 * service process records every module of Next's server build it loads.
 */
describe('the API router in a production process', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const probeFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'module-probe-')), 'loaded.txt');
  let server: RunningServer;

  beforeAll(async () => {
    writeFileSync(probeFile, '');
    const port = await findFreePort();
    server = await startNextServer({
      root,
      port,
      env: {
        DATABASE_URL: inject('databaseUrl'),
        JOB_RUNNER: 'off',
        WEB_CONCURRENCY: '1',
        LOG_LEVEL: 'warn',
        NEXTAUTH_SECRET: 'router-test-secret-0123456789abcdef',
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        MODULE_PROBE_FILE: probeFile,
        NODE_OPTIONS: `--require ${path.join(root, 'test/support/module-probe.cjs')}`,
      },
    });
  });
  afterAll(async () => server?.stop());

  it('answers every kind of /v1 request without Next loading a /v1 route module; Next serves the pages', async () => {
    const tenant = await createTenant();
    const get = (p: string, init?: RequestInit) => fetch(`${server.url}${p}`, init);
    expect((await get('/v1/status')).status).toBe(200);
    expect((await get('/v1/openapi.json')).status).toBe(200);
    expect((await get('/v1/quotes', { method: 'POST', headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' }, body: JSON.stringify(quoteRequest(tenant)) })).status).toBe(201);
    expect((await get('/v1/quotes?x=1', { method: 'POST', headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' }, body: JSON.stringify(quoteRequest(tenant)) })).status).toBe(201);
    expect((await get(`/v1/books/${tenant.bookId}`)).status).toBe(401);
    expect((await get('/v1/quotes', { method: 'OPTIONS' })).status).toBe(204);
    expect((await get('/v1/status', { method: 'HEAD' })).status).toBe(200);
    expect((await get('/v1/public_quotes')).status).toBe(405);
    expect((await get('/v1/nothing-here')).status).toBe(404);
    expect((await get('/v1/quotes/', { redirect: 'manual' })).status).toBe(308);
    // Next's own pages: the probe sees them load, so it would see a route module too.
    expect((await get('/signin')).status).toBe(200);
    expect((await get(`/q/${tenant.businessId}`)).status).toBe(200);

    const loaded = readFileSync(probeFile, 'utf8').split('\n').filter(Boolean);
    expect(loaded.some((file) => file.includes(`${path.sep}app${path.sep}signin${path.sep}`))).toBe(true);
    expect(loaded.filter((file) => file.includes(`${path.sep}app${path.sep}v1${path.sep}`))).toEqual([]);
  });
});
