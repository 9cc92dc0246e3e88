import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../../lib/testing/eventually';
import { createTenant, testDb, type Tenant } from '../../lib/testing/factories';
import { takeAnswer } from '../support/raw-http';

/**
 * What the server's edge answers (scripts/http-edge.mjs, the router's `refuse`): a request it
 * cannot hand to a route as it came is answered once, in the envelope of its surface (the account
 * surface's under /v1/accounts), with a request id in the header and the body, and a row in the
 * request log. The server runs with a 5 s headers and 10 s request timeout (test/setup/global-setup.ts).
 */

/** Every byte the server writes on one connection, until it ends it. */
async function exchange(bytes: string, timeoutMs = 30_000): Promise<string> {
  const { hostname, port } = new URL(inject('baseUrl'));
  const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => socket.destroy(new Error('the server did not close the connection in time')), timeoutMs);
    socket.on('connect', () => socket.write(bytes, 'latin1'));
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server's end of the connection: nothing more can come after it.
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
  return Buffer.concat(chunks).toString('utf8');
}

type Answer = { status: number; headers: Record<string, string>; body: any };

/** The answers on a connection, each whole, or the test fails. */
function answersOf(raw: string): Answer[] {
  const answers: Answer[] = [];
  let rest: Buffer = Buffer.from(raw, 'utf8');
  while (rest.length > 0) {
    const taken = takeAnswer(rest);
    if (!taken) throw new Error(`not a whole HTTP answer: ${JSON.stringify(rest.toString('utf8').slice(0, 200))}`);
    answers.push({ ...taken.answer, body: taken.answer.body ? JSON.parse(taken.answer.body) : null });
    rest = taken.rest;
  }
  return answers;
}

const only = (raw: string) => {
  const answers = answersOf(raw);
  expect(answers, raw).toHaveLength(1);
  return answers[0];
};

function expectAccountError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  const requestId = answer.headers['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String), param: expect.any(String), request_id: requestId } });
  return requestId;
}

function expectStandardError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  const requestId = answer.headers['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String), requestId } });
  return requestId;
}

/** What an exchange answered, and after how long. */
async function timed(answered: Promise<string>): Promise<{ raw: string; elapsedMs: number }> {
  const started = performance.now();
  return { raw: await answered, elapsedMs: performance.now() - started };
}

/** Answered once the timeout had passed, and not long after (a loaded machine answers late, never early). */
function expectWithin(elapsedMs: number, timeoutMs: number) {
  expect(elapsedMs).toBeGreaterThan(timeoutMs * 0.95);
  expect(elapsedMs).toBeLessThan(timeoutMs * 2 + 2_000);
}

// The server's batched writer flushes off the request path: on a loaded machine it can trail by seconds.
const rowOf = (requestId: string) => eventually(() => testDb().requestLog.findFirst({ where: { requestId } }), 30_000, 50);

describe('the edge answers in the envelope of its surface, once, with a request id and a log row', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('400 for a malformed Host (the account surface’s shape under /v1/accounts), a missing or a repeated one', async () => {
    const bracket = expectAccountError(only(await exchange('GET /v1/accounts/current HTTP/1.1\r\nHost: [::1\r\n\r\n')), 400, 'invalid_request');
    expect(await rowOf(bracket)).toMatchObject({ method: 'GET', path: '/v1/accounts/current', status: 400, errorCode: 'invalid_request' });
    for (const request of [
      'GET /v1/quotes HTTP/1.1\r\nHost: a b\r\n\r\n',
      'GET /v1/quotes HTTP/1.1\r\n\r\n',
      'GET /v1/quotes HTTP/1.1\r\nHost: localhost\r\nHost: example.com\r\n\r\n',
      'GET /v1/quotes HTTP/1.1\r\nHost: user@localhost\r\n\r\n',
    ]) {
      const requestId = expectStandardError(only(await exchange(request)), 400, 'invalid_request');
      expect(await rowOf(requestId)).toMatchObject({ path: '/v1/quotes', status: 400 });
    }
    // A well-formed Host with a port and an IPv6 literal is fine.
    expect(only(await exchange('GET /v1/status HTTP/1.1\r\nHost: [::1]:3000\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });

  it('400 for a malformed request line, 405 for a method the API has not, 431 for oversized headers: each in its surface’s shape, logged as sent', async () => {
    const line = expectAccountError(only(await exchange('GET /v1/accounts/a b HTTP/1.1\r\nHost: localhost\r\n\r\n')), 400, 'invalid_request');
    expect(await rowOf(line)).toMatchObject({ method: 'GET', path: '/v1/accounts/a', status: 400 });
    const garbage = expectStandardError(only(await exchange('GARBAGE\r\n\r\n')), 400, 'invalid_request');
    expect(await rowOf(garbage)).toMatchObject({ status: 400, errorCode: 'invalid_request' });
    const trace = only(await exchange('TRACE /v1/accounts/current HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    const traced = expectAccountError(trace, 405, 'method_not_allowed');
    expect(trace.headers.allow).toContain('GET');
    expect(await rowOf(traced)).toMatchObject({ method: 'TRACE', path: '/v1/accounts/current', status: 405 });
    const big = expectAccountError(only(await exchange(`GET /v1/accounts/current HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)), 431, 'headers_too_large');
    expect(await rowOf(big)).toMatchObject({ status: 431 });
  });

  // The three below wait out the server's timeouts: side by side, so the file waits 10 s, not 40.
  it.concurrent('a body that never completes after a refusal gets the refusal only: no 408 later on the same connection', async () => {
    const raw = await exchange(
      `POST /v1/accounts/${tenant.projectId}/quotes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer sk_test_nope\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"serv`,
    );
    expectAccountError(only(raw), 401, 'invalid_api_key');
  });

  it.concurrent('a body that stops arriving is answered 408 by its route within the request timeout, in its surface’s shape, once and logged', async () => {
    const [account, standard] = await Promise.all([
      timed(
        exchange(
          `POST /v1/accounts/${tenant.projectId}/quote-simulations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.keys.test}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"serv`,
        ),
      ),
      timed(exchange(`POST /v1/public_quotes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"busi`)),
    ]);
    const requestId = expectAccountError(only(account.raw), 408, 'request_timeout');
    expect(await rowOf(requestId)).toMatchObject({ method: 'POST', path: `/v1/accounts/${tenant.projectId}/quote-simulations`, status: 408, errorCode: 'request_timeout', projectId: tenant.projectId });
    expect(await rowOf(expectStandardError(only(standard.raw), 408, 'request_timeout'))).toMatchObject({ status: 408, path: '/v1/public_quotes' });
    for (const { elapsedMs } of [account, standard]) expectWithin(elapsedMs, 10_000);
  });

  it.concurrent('headers that stop arriving get one 408 with a request id within the headers timeout, logged', async () => {
    const { raw, elapsedMs } = await timed(exchange('POST /v1/quotes HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n'));
    const requestId = expectStandardError(only(raw), 408, 'request_timeout');
    expect(await rowOf(requestId)).toMatchObject({ status: 408, errorCode: 'request_timeout' });
    expectWithin(elapsedMs, 5_000);
  });
});
