import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { withClient } from '../../lib/testing/pg-client';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';

/**
 * A server whose database goes away: liveness still answers, in the envelope with its request
 * id, saying what is wrong (never 500), and readiness keeps the instance out of rotation.
 */
const root = path.resolve(import.meta.dirname, '../..');
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let server: RunningServer | undefined;

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  server = await startNextServer({
    root,
    env: { DATABASE_URL: iso.url, JOB_RUNNER: 'off', WEB_CONCURRENCY: '1' },
    logFile: path.join(root, 'test-results', 'database-down-server.log'),
  });
});

afterAll(async () => {
  await server?.stop();
});

describe('GET /v1/status with the database gone', () => {
  const status = async () => {
    const res = await fetch(`${server!.url}/v1/status`);
    return { status: res.status, requestId: res.headers.get('x-request-id'), body: await res.json() };
  };

  it('answers ok while the database is there, then 200 degraded with database unreachable once it is gone; ready answers 503', async () => {
    const up = await status();
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ status: 'ok', database: 'reachable' });

    // Stopped for this server: its connections are ended and the database no longer exists.
    const name = new URL(iso.url).pathname.slice(1);
    await iso.close();
    await withClient(process.env.TEST_DATABASE_URL!, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`));

    for (let i = 0; i < 3; i++) {
      const down = await status();
      expect(down.status).toBe(200);
      expect(down.body).toEqual({
        data: { status: 'degraded', version: '1.0.0', time: expect.any(String), database: 'unreachable', jobs: { engine: 'off', webhookDelivery: 'off', reason: null } },
        requestId: down.requestId,
      });
      expect(down.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
    const ready = await fetch(`${server!.url}/v1/status/ready`);
    expect(ready.status).toBe(503);
    const body = await ready.json();
    expect(body.error).toMatchObject({ code: 'service_unavailable', requestId: ready.headers.get('x-request-id') });
  });
});
