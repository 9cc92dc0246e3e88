import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { createTenant, quoteRequest, type Tenant } from '../../lib/testing/factories';
import { startApiServer, type ApiServer } from '../support/api-server';
import { takeAnswer, type RawAnswer } from '../support/raw-http';

/**
 * Request bodies through the production edge (scripts/http-edge.mjs streams them to the route,
 * lib/http/read-body.ts reads them) and answers as it sends them, over one keep-alive connection
 * as a client's pool sends them: a body in pieces, one over the limit, one never read (a refusal
 * before it) and a client gone mid-body must each leave the connection, or the server, ready for
 * the next request.
 */
let server: ApiServer;
let tenant: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  server = await startApiServer();
});
afterAll(async () => {
  await server.stop();
});

/** A raw keep-alive connection: writes bytes as given, reads the answers one by one. */
async function connection() {
  const { port } = new URL(server.url);
  const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  let received: Buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
    wake?.();
  });
  return {
    socket,
    write: (bytes: string | Buffer) => new Promise((resolve) => socket.write(bytes, resolve)),
    async answer(): Promise<RawAnswer> {
      let taken;
      while (!(taken = takeAnswer(received))) await new Promise<void>((resolve) => (wake = resolve));
      received = taken.rest;
      return taken.answer;
    },
  };
}

const head = (key: string, extra: string) =>
  `POST /v1/quotes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\n${extra}\r\n`;

const quoteBody = () => JSON.stringify(quoteRequest(tenant));

describe('a body read by the edge', () => {
  it('prices a quote sent in pieces, and answers the exact JSON text with its length', async () => {
    const client = await connection();
    const body = Buffer.from(quoteBody());
    await client.write(head(tenant.keys.test, `Content-Length: ${body.length}\r\n`));
    // The body in three writes, each once the last has left (no Nagle delay): the route reads them all.
    for (const piece of [body.subarray(0, 10), body.subarray(10, 200), body.subarray(200)]) await client.write(piece);
    const answer = await client.answer();
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(Buffer.byteLength(answer.body)).toBe(Number(answer.headers['content-length']));
    const parsed = JSON.parse(answer.body);
    expect(parsed.data.quoteIntent.bookId).toBe(tenant.bookId);
    expect(parsed.data.quoteReceipt.quoteIntentId).toBe(parsed.data.quoteIntent.id);
    expect(parsed.requestId).toBe(answer.headers['x-request-id']);
    client.socket.destroy();
  });

  it('refuses a chunked body over the limit with 413, drops the rest, and answers the next request on the connection', async () => {
    const client = await connection();
    await client.write(head(tenant.keys.test, 'Transfer-Encoding: chunked\r\n'));
    // 150 KB in 10 KB chunks, no Content-Length: the limit (100,000 bytes) is found by reading.
    const chunk = `{"pad":"${'x'.repeat(10_000 - 10)}"}`;
    for (let i = 0; i < 15; i++) await client.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
    await client.write('0\r\n\r\n');
    const refused = await client.answer();
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).error.code).toBe('payload_too_large');

    const body = quoteBody();
    await client.write(`${head(tenant.keys.test, `Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`);
    const next = await client.answer();
    expect(next.status).toBe(201);
    client.socket.destroy();
  });

  it('drops the body of a request refused before it is read (a wrong key), and answers the next one', async () => {
    const client = await connection();
    const body = quoteBody();
    await client.write(`${head('sk_test_not_a_key', `Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`);
    const refused = await client.answer();
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.code).toBe('invalid_api_key');
    await client.write(`${head(tenant.keys.test, `Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`);
    expect((await client.answer()).status).toBe(201);
    client.socket.destroy();
  });

  it('keeps serving after a client leaves mid-body, and refuses bytes that are not JSON in the envelope', async () => {
    const leaving = await connection();
    await leaving.write(`${head(tenant.keys.test, 'Content-Length: 5000\r\n')}{"businessId":`);
    leaving.socket.destroy();

    const client = await connection();
    const bytes = Buffer.concat([Buffer.from('{"businessId":"'), Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('"}')]);
    await client.write(Buffer.concat([Buffer.from(head(tenant.keys.test, `Content-Length: ${bytes.length}\r\n`)), bytes]));
    const refused = await client.answer();
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.body).error.code).toBe('invalid_quote_request');
    const body = quoteBody();
    await client.write(`${head(tenant.keys.test, `Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`);
    expect((await client.answer()).status).toBe(201);
    client.socket.destroy();
  });
  it('refuses a body whose bytes are not UTF-8, and takes U+FFFD sent as UTF-8 like any text', async () => {
    const post = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: new Uint8Array(body) });
    // A string of the body with the given bytes inside it, the rest valid JSON.
    const publicQuote = (offering: Buffer) =>
      Buffer.concat([Buffer.from(`{"businessId":"${tenant.businessId}","offeringId":"`), offering, Buffer.from(`","factors":${JSON.stringify(demoExample.factors)}}`)]);
    const apiQuote = (key: Buffer) => {
      const text = JSON.stringify({ ...quoteRequest(tenant), idempotencyKey: 'KEY' });
      const [before, after] = text.split('KEY');
      return Buffer.concat([Buffer.from(`${before}odd-key-`), key, Buffer.from(after)]);
    };
    const notUtf8 = Buffer.from([0xc0, 0xff]);

    for (const refused of [await post('/v1/public_quotes', publicQuote(notUtf8)), await post('/v1/quotes', apiQuote(notUtf8), { authorization: `Bearer ${tenant.keys.test}` })]) {
      expect(refused.status).toBe(422);
      const { error } = await refused.json();
      expect(error.code).toBe('invalid_quote_request');
      expect(error.message).toBe('The request body is not valid: it must be UTF-8 text: some of its bytes are not.');
    }
    // Before, the bytes were read as U+FFFD and a quote was made for a value nobody sent.
    const replacementChar = Buffer.from('\uFFFD', 'utf8');
    expect((await post('/v1/public_quotes', publicQuote(Buffer.concat([Buffer.from(demoExample.offeringId), replacementChar])))).status).toBe(201);
    expect((await post('/v1/quotes', apiQuote(replacementChar), { authorization: `Bearer ${tenant.keys.test}` })).status).toBe(201);
  });

  it('refuses a query parameter whose percent-encoded bytes are not UTF-8, and takes U+FFFD encoded as UTF-8', async () => {
    const list = (query: string) => fetch(`${server.url}/v1/quotes${query}`, { headers: { authorization: `Bearer ${tenant.keys.test}` } });
    for (const query of ['?offeringId=%C0%FF', '?limit=10&offeringId=window%FF', '?offeringId=%E2%82']) {
      const refused = await list(query);
      expect(refused.status, query).toBe(400);
      const { error } = await refused.json();
      expect(error).toMatchObject({
        code: 'invalid_request',
        message: 'Invalid query: offeringId: must be UTF-8 text: some of its bytes are not',
        details: { fields: { offeringId: ['must be UTF-8 text: some of its bytes are not'] } },
      });
    }
    // Before, these read as U+FFFD and the filter matched text nobody sent. Sent as UTF-8, it is text like any other.
    const fine = await list(`?offeringId=${encodeURIComponent('window\uFFFD')}`);
    expect(fine.status).toBe(200);
    expect((await fine.json()).data.quotes).toEqual([]);
  });

  it('reads a header byte for byte, as fetch sends it: a key of UTF-8 bytes from a raw client replays for fetch sending those bytes', async () => {
    const unique = crypto.randomUUID();
    const client = await connection();
    const body = Buffer.from(quoteBody());
    // "café" as UTF-8, as curl sends it: C3 A9.
    const key = Buffer.from(`caf\u00e9-${unique}`, 'utf8');
    await client.write(Buffer.concat([
      Buffer.from(`POST /v1/quotes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.keys.test}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: `),
      key,
      Buffer.from('\r\n\r\n'),
      body,
    ]));
    const first = await client.answer();
    client.socket.destroy();
    expect(first.status).toBe(201);
    // fetch sends each character of a header as one byte: the same bytes are the same key.
    const retried = await fetch(`${server.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json', 'idempotency-key': key.toString('latin1') },
      body,
    });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect((await retried.json()).data.quoteIntent.id).toBe(JSON.parse(first.body).data.quoteIntent.id);
  });
});
