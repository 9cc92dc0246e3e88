import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import { findFreePort } from '../../lib/db/embedded';
import { eventually } from '../../lib/testing/eventually';
import { childProcesses, commandLine, descendantProcesses, processAlive } from '../../lib/testing/processes';
import { createPerson, createTenant, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { startNextServer, STOP_BOUND_MS, type RunningServer } from '../../scripts/support/next-server';

/**
 * A supervisor watches the process it started: that process must be the last to stop, after
 * every worker has finished the webhook sends it had in flight and recorded them.
 */
const root = path.resolve(import.meta.dirname, '../..');
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Person;
let receiver: Receiver;
let server: RunningServer | undefined;

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, db);
  receiver = await startReceiver(() => ({ status: 200, afterMs: 3_000 }));
});

afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  await iso?.close();
});

describe('stopping the service', () => {
  it('SIGTERM: the started process exits last, after its workers finished and recorded the sends in flight', async () => {
    const asAdmin = () => testContext(db, { principal: admin.principal });
    const { endpoint } = await createEndpoint(asAdmin(), { projectId: tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['webhook.test'] });
    server = await startNextServer({
      root,
      // A window of one send per endpoint: one in flight, the other two queued behind it.
      env: { DATABASE_URL: iso.url, JOB_RUNNER: 'in-process', WEB_CONCURRENCY: '2', WEBHOOK_SEND_WINDOW: '1' },
      logFile: path.join(root, 'test-results', 'graceful-stop-server.log'),
    });
    const primary = server.process;
    const workers = childProcesses(primary.pid!);
    expect(workers).toHaveLength(2);
    const deliveries = [];
    for (let i = 0; i < 3; i++) deliveries.push(await sendTestEvent(asAdmin(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) }));
    // The first send of a fresh worker's runner: its first ticks can trail the start by tens of seconds under load.
    await eventually(() => receiver.load.inFlight === 1, 60_000, 20);
    // A listener's event stream is open too: it must not hold the stop up, nor keep its place.
    const stream = await fetch(`${server.url}/v1/event-stream`, { headers: { authorization: `Bearer ${tenant.keys.test}` } });
    expect(stream.status).toBe(200);
    const streamRead = stream.text().then(
      (text) => text,
      () => 'connection lost',
    );
    expect(await db.eventStreamLease.count()).toBe(1);

    const exited = new Promise<number>((resolve) => primary.once('exit', () => resolve(Date.now())));
    const signalled = Date.now();
    primary.kill('SIGTERM');
    const exitedAt = await exited;
    // The stream ended (its listener reconnects elsewhere) and its place was freed before the exit.
    expect(await streamRead).toMatch(/^retry: 2000\nevent: ready\n/);
    expect(await db.eventStreamLease.count()).toBe(0);
    // Every worker was gone by then, and the send in flight (answered 3 s after it started) was recorded.
    expect(workers.filter(processAlive)).toEqual([]);
    expect(exitedAt - signalled).toBeLessThan(STOP_BOUND_MS);
    const first = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[0].id }, include: { attempts: true } });
    expect(first).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(first.attempts[0].responseStatus).toBe(200);
    // The ones behind it were handed back unsent, for the next instance.
    const rest = await db.webhookDelivery.findMany({ where: { id: { in: deliveries.slice(1).map((d) => d.id) } } });
    expect(rest.map((d) => [d.status, d.leasedUntil, d.attemptsStarted])).toEqual([
      ['pending', null, 0],
      ['pending', null, 0],
    ]);
    await updateEndpoint(testContext(db), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 180_000); // a server's start (up to 60 s), its first send and its stop, on a loaded machine

  it('npm start, stopped with SIGTERM, returns only after every process under it has stopped', async () => {
    const asAdmin = () => testContext(db, { principal: admin.principal });
    const { endpoint } = await createEndpoint(asAdmin(), { projectId: tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['webhook.test'] });
    const port = await findFreePort();
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: iso.url, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '2', JOB_RUNNER: 'in-process', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<number>((resolve) => npm.once('exit', () => resolve(Date.now())));
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/v1/status`).catch(() => null))?.ok === true, 60_000, 200);
    const tree = descendantProcesses(npm.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(4); // start script, primary, two workers
    const delivery = await sendTestEvent(asAdmin(), { endpoint: await requireEndpoint(asAdmin(), { endpointId: endpoint.id }) });
    await eventually(() => receiver.load.inFlight === 1, 60_000, 20); // a fresh worker's runner, as above

    const signalled = Date.now();
    npm.kill('SIGTERM');
    const exitedAt = await exited;
    const survivors = tree.filter(processAlive).map((pid) => `${pid} ${commandLine(pid)}`);
    expect(survivors).toEqual([]);
    expect(exitedAt - signalled).toBeLessThan(STOP_BOUND_MS);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: 'succeeded', attemptCount: 1 });
  }, 180_000); // npm start (up to 60 s), the first send and the stop, on a loaded machine

  it('a port another process holds stops the start, saying so (it once waited 60 s on a server that never listened)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const start = startNextServer({ root, port, env: { DATABASE_URL: iso.url, JOB_RUNNER: 'off' }, logFile: path.join(root, 'test-results', 'port-taken-server.log') });
      await expect(start).rejects.toThrow(/exited with code 1[^]*cannot listen on 127\.0\.0\.1:\d+: another process holds it \(set PORT to a free port\)/);
    } finally {
      holder.close();
    }
  }, 120_000);

  it('npm start, stopped with SIGTERM while its server is still starting, leaves nothing running', async () => {
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: iso.url, PORT: String(await findFreePort()), HOST: '127.0.0.1', WEB_CONCURRENCY: '2', JOB_RUNNER: 'off', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    // The server's primary is there, before the start script has seen it answer: a caller that
    // checks /v1/status itself can get there first. (This signal once came before the start
    // script's own handlers, and the server kept running without a parent.)
    const primary = await eventually(
      () => descendantProcesses(npm.pid!).find((pid) => commandLine(pid).includes('serve.mjs')),
      60_000,
      10,
    );
    npm.kill('SIGTERM');
    await exited;
    expect(processAlive(primary), 'the server started by npm start').toBe(false);
  }, 120_000);
});

