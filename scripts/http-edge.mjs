// The HTTP server's edge, before Next.js and the API router: what Next or Node would answer
// outside the API's envelope (a 500 for a malformed Host, a bare 400 from Node's parser, a TRACE,
// a 408 for a body that never finishes) is answered in the envelope of the target's surface
// instead, by the router's `refuse` (lib/http/router.ts): with its request id, and a row in the
// request log, once per request. Only when the router cannot be reached does the edge write an
// answer of its own (same shapes, lib/http/envelope.ts), with a request id.
// Request ids carry their time (UUIDv7), as the route wrapper's do (lib/requestlog/request-id.ts).
import { v7 as newRequestId } from 'uuid';
import http from 'node:http';
import os from 'node:os';

/** The methods the API has; anything else is refused here (undici's Request rejects some of them). */
const API_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Time limits of a connection, in ms (docs/operations.md): a client has `headers` to send its
 * headers and `request` to send the whole request; an idle keep-alive connection is closed after
 * `keepAlive`, longer than the 60 s of common load balancers so that they never reuse a closed one.
 */
export function httpTimeouts(env = process.env) {
  const timeouts = {
    headers: wholeNumber(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 1, Number.MAX_SAFE_INTEGER),
    request: wholeNumber(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1, Number.MAX_SAFE_INTEGER),
    keepAlive: wholeNumber(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1, Number.MAX_SAFE_INTEGER),
  };
  if (timeouts.headers > timeouts.request) throw new Error('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return timeouts;
}

/** A whole-number setting as lib/settings parses it: blank is unset, anything else must be in range. */
function wholeNumber(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name}: must be a whole number from ${min} to ${max} (not ${JSON.stringify(raw)})`);
  return value;
}

/**
 * Service processes unless WEB_CONCURRENCY says: one per core, or half the cores (at least one)
 * when PostgreSQL runs on this machine too (no DATABASE_URL: the embedded one). PostgreSQL spends
 * about as much CPU on a quote as the service does, and a second process on 2 cores shared with it
 * halved every quote's batch and doubled the job runner's polling: one process served 1.6–1.8×
 * the quotes at 8 connections and 1.3× at 32 (docs/performance.md, "One process per two cores").
 */
export function defaultWorkers(databaseUrl, cores = os.availableParallelism()) {
  return databaseOnThisMachine(databaseUrl) ? Math.max(1, Math.floor(cores / 2)) : cores;
}

function databaseOnThisMachine(databaseUrl) {
  if (databaseUrl === undefined || databaseUrl.trim() === '') return true;
  let url;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  // A Unix socket (`?host=/var/run/postgresql`, or no host at all) is this machine's.
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname);
  return host === '' || host.startsWith('/') || host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

/**
 * What scripts/serve.mjs reads before any TypeScript loads: where to listen, how many processes
 * and their heap (docs/operations.md). The same names, defaults and ranges as lib/settings
 * (test/unit/settings-readers.test.ts compares them); a malformed one is named and refused.
 */
export function serveSettings(env = process.env) {
  const number = (name, fallback, min, max) => wholeNumber(env, name, fallback, min, max);
  return {
    port: number('PORT', 3000, 0, 65_535),
    hostname: env.HOST ?? '0.0.0.0',
    workers: number('WEB_CONCURRENCY', defaultWorkers(env.DATABASE_URL), 1, 1024),
    heapMb: number('SERVICE_MAX_HEAP_MB', 320, 16, 1_048_576),
    youngMb: number('SERVICE_SEMI_SPACE_MB', 32, 1, 1024),
  };
}

/**
 * Applies the limits and the half-open rule to a node:http server. `router` gives the API's router
 * (or a promise of it): what the server's parser refuses is answered through it.
 */
export function configureServer(server, timeouts = httpTimeouts(), { router } = {}) {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
  // A client may send its request and then close its side (FIN): it still gets its answer.
  // Without this, Node drops the request and the client sees a closed connection, even though a
  // quote may have been committed.
  server.httpAllowHalfOpen = true;
  // Node answers an HTTP/1.1 request without Host with a bare 400 of its own: the edge does (hostProblem).
  server.requireHostHeader = false;
  // The request each connection is on, so that a late error on it is never answered twice.
  // First of the 'request' listeners, so that the handler (serveApi) finds its exchange.
  server.prependListener('request', (request, response) => exchanges.set(request.socket, { request, response, timeOut: null }));
  server.on('clientError', (error, socket) => answerClientError(error, socket, router));
}

/** Per connection: its current request and response, and how to end a body that stopped coming (serveApi). */
const exchanges = new WeakMap();

export function isApiPath(url) {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
}

/**
 * The server's responses. Next calls flushHeaders() just before it writes the first chunk of a
 * body (and nowhere else), which sends the headers in a TCP segment of their own: one more write,
 * and one more wake-up of the client, per response. Left alone, Node sends the headers with that
 * first chunk. And every API response leaves with an x-request-id: the route wrapper's, or, for
 * what Next answers by itself (a redirect for a trailing slash), one made here.
 */
export class ApiServerResponse extends http.ServerResponse {
  flushHeaders() {}

  writeHead(statusCode, ...rest) {
    if (!this.hasHeader('x-request-id') && isApiPath(this.req?.url ?? '') && !headersArgumentHasRequestId(rest)) {
      this.setHeader('x-request-id', newRequestId());
    }
    return super.writeHead(statusCode, ...rest);
  }
}

function headersArgumentHasRequestId(rest) {
  const headers = typeof rest[0] === 'string' ? rest[1] : rest[0];
  if (!headers) return false;
  // An object, or a flat [name, value, name, value, …] list.
  if (Array.isArray(headers)) return headers.some((entry, i) => i % 2 === 0 && String(entry).toLowerCase() === 'x-request-id');
  return Object.keys(headers).some((name) => name.toLowerCase() === 'x-request-id');
}

/**
 * What the edge answers before Next.js sees a request of the portal or the hosted page: an
 * HTTP/1.1 request without Host gets the 400 Node would give (API requests are refused in the
 * envelope by serveApi). Returns false to let Next serve it.
 */
export function answeredAtEdge(request, response) {
  if (isApiPath(request.url ?? '/')) return false;
  if (!hostProblem(request)) return false;
  response.writeHead(400, { connection: 'close', 'content-type': 'text/plain' });
  response.end('Bad Request');
  return true;
}

/**
 * Why an API request cannot be handed to its route as it came, if it cannot: a Host that is
 * missing (HTTP/1.1), repeated or malformed (RFC 9112 3.2: 400), or a method the API has not.
 */
function refusalOf(request) {
  const host = hostProblem(request);
  if (host) return { code: 'invalid_request', message: host };
  if (!API_METHODS.has(request.method)) {
    return { code: 'method_not_allowed', message: `${request.method} is not a method of this API.`, headers: { allow: [...API_METHODS].join(', ') } };
  }
  return null;
}

/** RFC 3986 authority without userinfo: an IP literal, an IPv4 address or a registered name, and a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]{0,5})?$/;

function hostProblem(request) {
  const hosts = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i].toLowerCase() === 'host') hosts.push(request.rawHeaders[i + 1]);
  if (hosts.length > 1) return 'The request has more than one Host header.';
  if (hosts.length === 0) return request.httpVersion === '1.1' ? 'The request has no Host header.' : null;
  if (!HOST.test(hosts[0])) return 'The Host header is not a valid host.';
  try {
    new URL(`http://${hosts[0]}/`);
    return null;
  } catch {
    return 'The Host header is not a valid host.';
  }
}

/** What Node's parser refuses (a malformed request line or header, oversized headers, a timeout). */
function answerClientError(error, socket, routerOf) {
  if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return answerRefused(error, socket, routerOf);
  // Node checks the connections' timeouts in the timers phase, before the poll phase reads what
  // the sockets hold: after an event-loop stall longer than a timeout, a request whose bytes all
  // arrived during it has not been read yet. One turn later they have been: a request that came
  // (a new exchange) or finished since is served as usual (test/unit/edge-stall.test.ts).
  const before = exchanges.get(socket);
  const wasComplete = before?.request.complete ?? false;
  setImmediate(() => {
    const now = exchanges.get(socket);
    if (now !== before || (now && !wasComplete && now.request.complete)) return;
    answerRefused(error, socket, routerOf);
  });
}

/** Answers what the parser refused, now: in the envelope of the target's surface, through the router. */
function answerRefused(error, socket, routerOf) {
  const exchange = exchanges.get(socket);
  // A response already under way or given for a request whose body is still coming: that request
  // has had its answer; nothing more is written on this connection.
  const answered = exchange && exchange.response.headersSent && (!exchange.request.complete || !exchange.response.writableFinished);
  if (error.code === 'ECONNRESET' || !socket.writable || answered) {
    socket.destroy();
    return;
  }
  if (exchange && !exchange.request.complete && error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // A body that stopped coming: the route reading it answers 408 itself (serveApi).
    if (exchange.timeOut) return exchange.timeOut();
    // A request of the portal or the hosted page: answered here.
    return writeRaw(socket, 408, ownEnvelope(exchange.request.url ?? '', 'request_timeout', 'The request was not received in time.'));
  }
  const [code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', 'The request was not received in time.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request headers are too large.']
        : ['invalid_request', 'The request is not valid HTTP.'];
  const requestLine = /^([!-~]+) (\S+)/.exec(error.rawPacket?.toString('latin1') ?? '');
  const sent = { method: requestLine?.[1] ?? '', target: requestLine?.[2] ?? '' };
  // The portal's and the hosted page's own requests are not the API's: not logged there.
  if (sent.target && !isApiPath(sent.target)) return writeRaw(socket, STATUS[code], ownEnvelope(sent.target, code, message));
  const headers = new Headers();
  if (socket.remoteAddress) headers.set('x-forwarded-for', socket.remoteAddress);
  Promise.resolve(routerOf?.())
    .then((router) => (router ? router.refuse({ ...sent, headers }, { code, message }) : null))
    .then(
      async (answer) => (answer ? writeRaw(socket, answer.status, { headers: answer.headers, body: Buffer.from(await answer.arrayBuffer()) }) : writeRaw(socket, STATUS[code], ownEnvelope(sent.target, code, message))),
      (failure) => {
        console.error(failure);
        writeRaw(socket, STATUS[code], ownEnvelope(sent.target, code, message));
      },
    );
}

const STATUS = { invalid_request: 400, method_not_allowed: 405, request_timeout: 408, headers_too_large: 431, internal_error: 500 };
const reasons = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error' };

/** Writes one answer on a connection the parser gave up on, and closes it. */
function writeRaw(socket, status, { headers, body }) {
  if (!socket.writable) return socket.destroy();
  let head = `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\n`;
  headers.forEach((value, name) => {
    if (name !== 'connection' && name !== 'content-length' && name !== 'transfer-encoding') head += `${name}: ${value}\r\n`;
  });
  socket.end(Buffer.concat([Buffer.from(`${head}content-length: ${body.length}\r\nconnection: close\r\n\r\n`, 'latin1'), body]));
}

/** The edge's own answer, for when the router cannot give one: the envelope of the target's surface, with a request id. */
function ownEnvelope(target, code, message) {
  const requestId = newRequestId();
  const body = Buffer.from(JSON.stringify(envelope(target, code, message, requestId)));
  return { headers: new Headers({ 'content-type': 'application/json', 'x-request-id': requestId }), body };
}

/** The error body of spec 2.1, or of the account surface (spec 4.3) under /v1/accounts. */
function envelope(url, code, message, requestId) {
  return url.startsWith('/v1/accounts')
    ? { error: { code, message, param: '', request_id: requestId } }
    : { error: { code, message, requestId } };
}

/** The request as the edge can describe it to the router's `refuse`. */
function sentOf(request) {
  const headers = new Headers();
  const agent = request.headers['user-agent'];
  if (agent) headers.set('user-agent', agent);
  const forwarded = request.headers['x-forwarded-for'] ?? request.socket.remoteAddress;
  if (forwarded) headers.set('x-forwarded-for', String(forwarded));
  return { method: request.method, target: request.url ?? '', headers };
}

/** The router given the web Request it expects, its Response written back. */
export async function serveApi(router, request, response) {
  const exchange = exchanges.get(request.socket);
  const refusal = refusalOf(request);
  if (refusal) {
    // A malformed request: answered, and the connection closed after it.
    if (refusal.code === 'invalid_request') response.shouldKeepAlive = false;
    return writeAnswer(response, await router.refuse(sentOf(request), refusal).catch(() => null), request, refusal);
  }
  const body = bodyStream(request);
  let timedOut = false;
  // The server's request timeout while the route still reads the body: the route answers 408
  // (lib/http/read-body.ts), and the connection closes after it.
  if (exchange?.request === request) {
    exchange.timeOut = () => {
      timedOut = true;
      response.shouldKeepAlive = false;
      body.fail(Object.assign(new Error('the request body was not received in time'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    };
  }
  // A route that refuses before reading the body (401, 429) leaves it unread: read it to the end
  // (and drop it), so that the next request on this keep-alive connection can be parsed.
  response.once('finish', () => {
    if (request.complete) return;
    if (timedOut) request.socket.end();
    else body.drain();
  });
  try {
    const headers = new Headers();
    for (let i = 0; i < request.rawHeaders.length; i += 2) headers.append(request.rawHeaders[i], request.rawHeaders[i + 1]);
    // Who called, as Next.js tells its routes: the proxy's word when there is one, else the socket's peer.
    if (!headers.has('x-forwarded-for') && request.socket.remoteAddress) headers.set('x-forwarded-for', request.socket.remoteAddress);
    const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const answer = await router.handle(new Request(url, { method: request.method, headers, body: hasBody ? body.stream : undefined, duplex: 'half' }));
    answer.headers.forEach((value, name) => {
      if (name !== 'set-cookie') response.setHeader(name, value);
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length > 0) response.setHeader('set-cookie', cookies);
    if (answer.body && STREAMED.test(answer.headers.get('content-type') ?? '')) return await streamBody(answer, response);
    const payload = Buffer.from(await answer.arrayBuffer());
    response.setHeader('content-length', payload.length);
    response.writeHead(answer.status);
    response.end(payload);
  } catch (error) {
    // The route wrapper answers every error itself; this is a request it could not be given.
    console.error(error);
    if (response.headersSent) return void response.destroy();
    const failure = { code: 'internal_error', message: 'Something went wrong on our side.' };
    writeAnswer(response, await router.refuse(sentOf(request), failure).catch(() => null), request, failure);
  }
}

/** The router's answer written back; without one (the router itself failed), the edge's own. */
async function writeAnswer(response, answer, request, refusal) {
  if (!answer) {
    const own = ownEnvelope(request.url ?? '', refusal.code, refusal.message);
    own.headers.forEach((value, name) => response.setHeader(name, value));
    for (const [name, value] of Object.entries(refusal.headers ?? {})) response.setHeader(name, value);
    response.setHeader('content-length', own.body.length);
    response.writeHead(STATUS[refusal.code]);
    return response.end(own.body);
  }
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  const payload = Buffer.from(await answer.arrayBuffer());
  response.setHeader('content-length', payload.length);
  response.writeHead(answer.status);
  response.end(payload);
}

/** Answers written as they come (server-sent events, progress lines); every other answer is sent in one write. */
const STREAMED = /^(text\/event-stream|application\/x-ndjson)/i;

/** Writes a streamed answer chunk by chunk, waiting when the client reads slowly, until it ends or the client goes. */
async function streamBody(answer, response) {
  response.writeHead(answer.status);
  const reader = answer.body.getReader();
  let gone = false;
  const leave = () => {
    gone = true;
    reader.cancel().catch(() => undefined);
  };
  response.once('close', leave);
  const socket = response.req?.socket;
  // An event stream's listener never half-closes: its FIN means it went away, before the stream
  // began too (then 'end' came before anyone listened). Half-open connections are allowed, so
  // 'close' would otherwise wait for a heartbeat's write to fail.
  if (socket && /^text\/event-stream/i.test(answer.headers.get('content-type') ?? '')) {
    const hungUp = () => {
      response.destroy();
      leave();
    };
    if (socket.destroyed || socket.readableEnded || !socket.writable) hungUp();
    else {
      socket.once('end', hungUp);
      response.once('close', () => socket.off('end', hungUp));
    }
  } else if (socket?.destroyed) leave();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!response.write(value)) await new Promise((resolve) => { response.once('drain', resolve); response.once('close', resolve); });
    }
  } catch {
    // The stream failed midway: nothing more can be said in its format; the connection ends.
  }
  if (!gone) response.end();
}

/**
 * The request body as a web stream, with backpressure (at most 64 KB waits unread), erroring
 * when the client goes away mid-body; `drain()` reads what is left and drops it.
 */
function bodyStream(request) {
  let dropping = false;
  let control = null;
  const drain = () => {
    dropping = true;
    request.resume();
  };
  // The body will not come: whoever reads it gets `error`, and what arrives later is dropped.
  const fail = (error) => {
    if (dropping) return;
    dropping = true;
    try {
      control?.error(error);
    } catch {
      // already closed or errored
    }
  };
  const stream = new ReadableStream(
    {
      start(controller) {
        control = controller;
        request.on('data', (chunk) => {
          if (dropping) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (controller.desiredSize <= 0) request.pause();
        });
        request.on('end', () => {
          if (!dropping) controller.close();
        });
        request.on('close', () => {
          if (!dropping && !request.complete) controller.error(new Error('the client closed the connection before the body was complete'));
        });
      },
      pull() {
        request.resume();
      },
      cancel: drain,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { stream, drain, fail };
}
