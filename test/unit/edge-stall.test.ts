import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript, shared with scripts/serve.mjs
import { configureServer, serveApi } from '../../scripts/http-edge.mjs';

/**
 * The edge after its event loop stalled (a long synchronous task, a GC pause, a starved process):
 * Node's connection check runs in the timers phase, before the poll phase reads what the sockets
 * hold, so a request whose bytes all arrived during the stall looks, for a moment, like a client
 * too slow to send them. It must be answered as the request it is, never 408.
 */

const TIMEOUTS = { headers: 200, request: 300, keepAlive: 5_000 };
const STALL_MS = 600;

/** Blocks this thread, and so the server's event loop, as a long synchronous task would. */
function stall(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A router that answers with the length of the body it read, as a route reading its body would. */
const echoRouter = {
  async handle(request: Request) {
    try {
      return Response.json({ received: (await request.text()).length });
    } catch {
      // As lib/http/read-body.ts answers a body that stopped coming.
      return Response.json({ error: { code: 'request_timeout', message: 'The request was not received in time.' } }, { status: 408 });
    }
  },
  // No router answer for what the edge refuses: the edge's own envelope.
  refuse: async () => null,
};

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The production edge on a port of its own, with short timeouts and a connection check every 10 ms. */
async function edgeServer(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer({ connectionsCheckingInterval: 10 }, (request, response) => {
    if (request.url?.startsWith('/v1/')) void serveApi(echoRouter, request, response);
    else {
      // A portal page's handler: the body read to its end, then answered.
      let length = 0;
      request.on('data', (chunk: Buffer) => (length += chunk.length));
      request.on('end', () => response.end(JSON.stringify({ received: length })));
    }
  });
  configureServer(server, TIMEOUTS, { router: async () => echoRouter });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A connected client and the server's side of it, accepted. */
async function connect(server: http.Server, port: number): Promise<net.Socket> {
  const accepted = new Promise((resolve) => server.once('connection', resolve));
  const client = net.connect({ host: '127.0.0.1', port });
  await Promise.all([accepted, new Promise((resolve) => client.once('connect', resolve))]);
  return client;
}

/** The status and body of the one answer on the connection, once the server closes it. */
function answerOn(client: net.Socket): Promise<{ status: number; body: unknown }> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    client.on('data', (chunk) => chunks.push(chunk));
    client.on('error', reject);
    client.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer: ${JSON.stringify(raw)}`));
      resolve({ status: Number(raw.split(' ')[1]), body: JSON.parse(raw.slice(split + 4)) });
    });
  });
}

const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
const BODY = '{"items":[{"sku":"A","quantity":1}]}';

describe('the edge after a stall longer than its timeouts', () => {
  for (const path of ['/v1/quotes', '/portal/form']) {
    it(`answers a request whose body arrived during the stall (${path})`, async () => {
      const { server, port } = await edgeServer();
      const client = await connect(server, port);
      const answer = answerOn(client);
      // The headers are read and handed to the handler; the body reaches the socket while the
      // server is stalled, longer than the request timeout.
      server.prependOnceListener('request', () => {
        client.write(BODY);
        stall(STALL_MS);
      });
      client.write(head(path, BODY.length));
      expect(await answer).toEqual({ status: 200, body: { received: BODY.length } });
    });

    it(`answers a request that arrived whole during the stall (${path})`, async () => {
      const { server, port } = await edgeServer();
      const client = await connect(server, port);
      const answer = answerOn(client);
      // Accepted, then the whole request arrives while the server is stalled, longer than the
      // headers timeout.
      client.write(head(path, BODY.length) + BODY);
      stall(STALL_MS);
      expect(await answer).toEqual({ status: 200, body: { received: BODY.length } });
    });

    it(`still answers 408 to a body that never comes (${path})`, async () => {
      const { server, port } = await edgeServer();
      const client = await connect(server, port);
      const answer = answerOn(client);
      client.write(head(path, BODY.length) + BODY.slice(0, 5));
      const { status, body } = await answer;
      expect(status).toBe(408);
      expect(body).toMatchObject({ error: { code: 'request_timeout' } });
    });
  }

  it('still answers 408 to headers that never finish', async () => {
    const { server, port } = await edgeServer();
    const client = await connect(server, port);
    const answer = answerOn(client);
    client.write('POST /v1/quotes HTTP/1.1\r\nHost: localhost\r\n');
    const { status, body } = await answer;
    expect(status).toBe(408);
    expect(body).toMatchObject({ error: { code: 'request_timeout' } });
  });
});
