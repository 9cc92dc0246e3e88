import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../../lib/testing/eventually';
import { createApiKey } from '../../lib/keys/create-api-key';
import { STREAM_LIMITS } from '../../lib/ratelimit/registry';
import { createPerson, createTenant, quoteRequest, testContext, type Tenant } from '../../lib/testing/factories';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';
import { webhooks } from '../../sdk/src/index';
import { startCli } from '../support/cli';

/**
 * `qps listen` as a developer runs it: a production server, the CLI in its own process reading the
 * event stream, and a plain local HTTP receiver (no public URL) that verifies every delivery with
 * the SDK and fails the first one.
 */
const root = path.resolve(import.meta.dirname, '../..');
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let server: RunningServer;
let tenant: Tenant;
let local: http.Server;
const received: { body: string; headers: http.IncomingHttpHeaders; status: number }[] = [];
const children: ChildProcess[] = [];

/** Whether a received request was signed with this secret (the first test's listener signs with its own). */
const signedWith = (secret: string) => (r: (typeof received)[number]) => {
  try {
    return Boolean(webhooks.verify(r.body, r.headers as Record<string, string>, secret));
  } catch {
    return false;
  }
};

/** Where the listeners of this file keep their positions (a fresh one per run, as on a new machine). */
const stateDir = mkdtempSync(path.join(os.tmpdir(), 'qps-listen-state-'));

function runCli(args: string[], env: Record<string, string>) {
  const run = startCli(args, { QPS_STATE_DIR: stateDir, ...env });
  children.push(run.child);
  return run;
}

/**
 * Each run of the CLI is a fresh Node process loading TypeScript: over 30 s to start under CI's
 * load. The bounds on a start, and the tests' timeouts (a minute a run), allow for that.
 */
const CLI_START_MS = 75_000;

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  tenant = await createTenant({}, iso.db);
  server = await startNextServer({
    root,
    // Two processes whatever the machine: a test below holds the bound per key across them.
    env: { DATABASE_URL: iso.url, JOB_RUNNER: 'off', WEB_CONCURRENCY: '2' },
    logFile: path.join(root, 'test-results', 'cli-server.log'),
  });
  local = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const status = received.length === 0 ? 500 : 200;
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  local?.close();
  await server?.stop();
  await iso?.close();
});

describe('qps listen', () => {
  it('forwards a real Test event to localhost, signed, and retries the failed attempt on the compressed schedule', async () => {
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hooks`;
    const cli = runCli(['listen', '--forward-to', url, '--compressed'], { QPS_API_KEY: tenant.keys.test, QPS_BASE_URL: server.url });
    await eventually(() => (cli.output.text.includes('Ready:') ? true : undefined), CLI_START_MS);
    const secret = /Signing forwarded events with (whsec_\S+)/.exec(cli.output.text)?.[1];
    expect(secret).toBeDefined();
    expect(cli.output.text).toMatch(/retried after 2 seconds, 5 seconds, 10 seconds and 20 seconds \(compressed/);

    const quote = await fetch(`${server.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify(quoteRequest(tenant)),
    });
    const created = (await quote.json()) as { data: { quoteIntent: { id: string } } };
    // The event through the stream, a first send, 2 s, a second: seconds more on a loaded machine.
    await eventually(() => (received.filter((r) => r.body.includes(created.data.quoteIntent.id)).length >= 2 ? true : undefined), 60_000);

    const forQuote = received.filter((r) => r.body.includes(created.data.quoteIntent.id));
    expect(forQuote.map((r) => r.status)).toEqual([500, 200]);
    expect(forQuote.map((r) => r.headers['service-attempt'])).toEqual(['1', '2']);
    for (const delivery of forQuote) {
      const event = webhooks.verify(delivery.body, delivery.headers as Record<string, string>, secret!);
      expect(event).toMatchObject({ type: 'quote_intent.succeeded', data: { quoteIntent: { id: created.data.quoteIntent.id } } });
      expect((event.data as { quoteReceipt: { computation: { totalMinor: number } } }).quoteReceipt.computation.totalMinor).toBe(15525);
    }
    // The CLI prints each line once the receiver's answer is read: a moment after the receiver has it.
    await eventually(() => (/quote_intent\.succeeded .*→ 200 .*attempt 2\)/.test(cli.output.text) ? true : undefined), 30_000);
    expect(cli.output.text).toMatch(/quote_intent\.succeeded .*→ 500 .*attempt 1\); retrying in 2 seconds/);
  }, 240_000);

  it('sends one signed event with a chosen body', async () => {
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hooks`;
    const file = path.join(root, 'test-results', 'cli-send-data.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ quoteIntent: { id: 'chosen-by-hand' } }));
    const cli = runCli(['send', '--type', 'quote_intent.failed', '--data', file, '--forward-to', url, '--secret', 'whsec_local'], {});
    expect(await cli.exited).toBe(0);
    const got = received.find((r) => r.body.includes('chosen-by-hand'))!;
    expect(webhooks.verify(got.body, got.headers as Record<string, string>, 'whsec_local')).toMatchObject({ type: 'quote_intent.failed', data: { quoteIntent: { id: 'chosen-by-hand' } } });
    expect(cli.output.text).toMatch(/quote_intent\.failed .*→ 200/);
  }, 120_000); // one run of the CLI

  it('triggers a real Test event of every type Test has: quotes, keys, a republished book, a test event', async () => {
    // No --business or --book: the key's account names its book and business (the quote spec).
    const env = { QPS_API_KEY: tenant.keys.test, QPS_BASE_URL: server.url };
    for (const type of ['quote_intent.succeeded', 'quote_intent.requires_input', 'quote_intent.failed', 'account_quote.created']) {
      const before = await iso.db.outboxEvent.count({ where: { type, environmentId: tenant.environments.test } });
      const cli = runCli(['trigger', type], env);
      expect(await cli.exited, cli.output.text).toBe(0);
      expect(cli.output.text).toContain(`Triggered ${type}`);
      expect(await iso.db.outboxEvent.count({ where: { type, environmentId: tenant.environments.test } })).toBe(before + 1);
    }
    // Those the service makes happen itself: each run lists the events it emitted.
    const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, iso.db);
    const { endpoint } = await createEndpoint(testContext(iso.db, { principal: admin.principal }), { projectId: tenant.projectId, environment: 'test', url: 'https://receiver.example/hooks' });
    for (const [type, extra] of [['api_key.created', []], ['api_key.rotated', []], ['api_key.revoked', []], ['book_version.published', []], ['webhook.test', ['--endpoint', endpoint.id]]] as const) {
      const before = await iso.db.outboxEvent.count({ where: { type, environmentId: tenant.environments.test } });
      const cli = runCli(['trigger', type, ...extra], env);
      expect(await cli.exited, cli.output.text).toBe(0);
      expect(cli.output.text).toMatch(new RegExp(`Triggered ${type.replace('.', '\\.')}: \\d+ events?\\.\\n(  [0-9a-f-]{36}  [a-z_.]+\\n)+`));
      expect(await iso.db.outboxEvent.count({ where: { type, environmentId: tenant.environments.test } })).toBeGreaterThan(before);
    }
    const refused = runCli(['trigger', 'business_member.invited'], env);
    expect(await refused.exited).toBe(2);
    expect(refused.output.text).toContain('qps send --type business_member.invited --example');
  }, 600_000); // ten runs of the CLI, one after another

  it('sends the catalogue’s example of an event type, signed', async () => {
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hooks`;
    const cli = runCli(['send', '--type', 'api_key.rotated', '--example', '--forward-to', url, '--secret', 'whsec_local'], { QPS_BASE_URL: server.url });
    expect(await cli.exited, cli.output.text).toBe(0);
    // A triggered api_key.rotated may have reached the listener too: this one is signed with ours.
    const got = received.filter((r) => r.body.includes('"api_key.rotated"')).find(signedWith('whsec_local'))!;
    expect(webhooks.verify(got.body, got.headers as Record<string, string>, 'whsec_local').data).toMatchObject({ graceMinutes: expect.any(Number) });
  }, 120_000); // one run of the CLI

  it('sends an event of the Test environment again, as its deliveries send it', async () => {
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hooks`;
    const quote = await fetch(`${server.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify(quoteRequest(tenant)),
    });
    const quoteId = ((await quote.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
    const event = await iso.db.outboxEvent.findFirstOrThrow({ where: { subjectId: quoteId } });
    const cli = runCli(['resend', event.id, '--forward-to', url, '--secret', 'whsec_local'], { QPS_API_KEY: tenant.keys.test, QPS_BASE_URL: server.url });
    expect(await cli.exited, cli.output.text).toBe(0);
    // The listener of the first test forwards the same event with its own secret: this one is ours.
    const got = received.filter((r) => r.body.includes(event.id)).find(signedWith('whsec_local'))!;
    const resent = webhooks.verify(got.body, got.headers as Record<string, string>, 'whsec_local');
    expect(resent).toMatchObject({ id: event.id, type: 'quote_intent.succeeded', data: { quoteIntent: { id: quoteId } } });
    // The computation is back in place, as every delivery of it sends it.
    expect((resent.data as { quoteReceipt: { computation: { totalMinor: number } } }).quoteReceipt.computation.totalMinor).toBe(15525);

    const live = runCli(['resend', event.id, '--forward-to', url, '--secret', 'whsec_local'], { QPS_API_KEY: tenant.keys.live, QPS_BASE_URL: server.url });
    expect(await live.exited).toBe(2);
  }, 240_000); // two runs of the CLI

  it('follows the request log of the key’s environment', async () => {
    const cli = runCli(['logs', 'tail'], { QPS_API_KEY: tenant.keys.test, QPS_BASE_URL: server.url });
    await eventually(() => (cli.output.text.includes('Following the requests') ? true : undefined), CLI_START_MS);
    await fetch(`${server.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...quoteRequest(tenant), factors: 'not an object' }),
    });
    // The server's batched request log, then the CLI's next poll: seconds more on a loaded machine.
    await eventually(() => (/422 {2}POST \/v1\/quotes .*invalid_quote_request/.test(cli.output.text) ? true : undefined), 30_000);
    cli.child.kill('SIGTERM');
  }, 150_000);

  it('frees a stream’s place when its listener goes away; the bound per key holds across the server’s processes', async () => {
    const { secret, apiKey } = await createApiKey(testContext(iso.db), { projectId: tenant.projectId, environment: 'test', name: 'listeners' });
    const slots = () => iso.db.eventStreamLease.findMany({ where: { apiKeyId: apiKey.id } });
    // Each stream on a connection of its own (the server's processes take new connections in
    // turn), held until the test hangs it up.
    const listeners: http.ClientRequest[] = [];
    const open = () =>
      new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const request = http.get(`${server.url}/v1/event-stream`, { agent: false, headers: { authorization: `Bearer ${secret}` } }, (response) => {
          if (response.statusCode === 200) listeners.push(request);
          else response.resume();
          resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] });
        });
        request.on('error', reject);
      });
    try {
      for (let i = 0; i < STREAM_LIMITS.perKey; i++) expect((await open()).status).toBe(200);
      expect(new Set((await slots()).map((slot) => slot.holder)).size).toBe(2);
      const refused = await open();
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toMatch(/^\d+$/);

      listeners.shift()!.destroy();
      // The server sees the hang-up and frees the place: seconds on a loaded machine.
      await eventually(async () => (await slots()).length === STREAM_LIMITS.perKey - 1, 30_000);
      expect((await open()).status).toBe(200);
    } finally {
      for (const listener of listeners) listener.destroy();
    }
  });

  it('frees the place of a listener that hung up before its stream began', async () => {
    const { secret, apiKey } = await createApiKey(testContext(iso.db), { projectId: tenant.projectId, environment: 'test', name: 'hasty listener' });
    const { hostname, port } = new URL(server.url);
    // The request and the client's FIN together: the server still serves it (half-open connections
    // are allowed), and the stream begins after the listener has gone.
    await new Promise<string>((resolve) => {
      const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true }, () =>
        socket.end(`GET /v1/event-stream HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${secret}\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('event: ready')) resolve(text);
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
      onTestFinished(() => void socket.destroy());
    });
    // It was opened (the request log says 200), and its place is free.
    // The server's batched request log, and its freeing of the place: seconds on a loaded machine.
    await eventually(() => iso.db.requestLog.findFirst({ where: { apiKeyId: apiKey.id, path: '/v1/event-stream', status: 200 } }), 30_000);
    await eventually(async () => (await iso.db.eventStreamLease.count({ where: { apiKeyId: apiKey.id } })) === 0, 30_000);
  });

  it('resumes after a restart where it stopped: an event emitted while it was stopped arrives once', async () => {
    // A key of its own, so that no other test's listener or quote shares its position or its events.
    const { secret: key } = await createApiKey(testContext(iso.db), { projectId: tenant.projectId, environment: 'test', name: 'resuming listener' });
    const hits: string[] = [];
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => (body += c.toString()));
      request.on('end', () => {
        hits.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void receiver.close());
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/resume`;
    const env = { QPS_API_KEY: key, QPS_BASE_URL: server.url };
    const quote = async () => {
      const response = await fetch(`${server.url}/v1/quotes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(quoteRequest(tenant)),
      });
      return ((await response.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
    };
    const arrived = (quoteId: string) => hits.filter((body) => body.includes(quoteId)).length;

    const first = runCli(['listen', '--forward-to', url, '--secret', 'whsec_resume'], env);
    await eventually(() => (first.output.text.includes('Ready:') ? true : undefined), CLI_START_MS);
    const before = await quote();
    await eventually(() => (arrived(before) === 1 ? true : undefined), 30_000);
    await eventually(() => (/→ 204/.test(first.output.text) ? true : undefined), 30_000);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output.text).toMatch(/Stopped\. The next start resumes after event [0-9a-f-]{36}/);

    const missed = await quote();
    const second = runCli(['listen', '--forward-to', url, '--secret', 'whsec_resume'], env);
    await eventually(() => (arrived(missed) === 1 ? true : undefined), CLI_START_MS); // the second run's start, then the event
    expect(second.output.text).toMatch(/Resuming after event [0-9a-f-]{36} \(saved \d\d:\d\d:\d\d\)\./);
    // Nothing forwarded twice: the event of the first run is not sent again, the missed one once.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(arrived(before)).toBe(1);
    expect(arrived(missed)).toBe(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 300_000); // two runs of the CLI and the bounds above

  it('refuses a Live key, before and at the service', async () => {
    const cli = runCli(['listen', '--forward-to', 'http://127.0.0.1:9/x'], { QPS_API_KEY: tenant.keys.live, QPS_BASE_URL: server.url });
    expect(await cli.exited).toBe(2);
    expect(cli.output.text).toContain('Refused: this is a Live key');

    // A Live key is not given events:listen; one given it anyway is still refused.
    const stream = await fetch(`${server.url}/v1/event-stream`, { headers: { authorization: `Bearer ${tenant.keys.live}` } });
    expect(stream.status).toBe(403);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
    const { secret: liveListener } = await createApiKey(testContext(iso.db), { projectId: tenant.projectId, environment: 'live', name: 'live listener', scopes: ['events:listen'] });
    const refused = await fetch(`${server.url}/v1/event-stream`, { headers: { authorization: `Bearer ${liveListener}` } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Test keys only');
  }, 120_000); // one run of the CLI
});
