// The HTTP server's edge, before Next.js and the API router: what Next would answer outside the API's envelope
// (a 500 in text/plain for a malformed percent-encoding or a TRACE, a bare 400 from Node's
// parser, a 408 for a body that never finishes) is answered here in the envelope instead, with
// an x-request-id. The bodies follow lib/http/envelope.ts; a test holds them to the OpenAPI schemas.
// Request ids carry their time (UUIDv7), as the route wrapper's do (lib/http/request-id.ts).
import { v7 as newRequestId } from 'uuid';
import http from 'node:http';

/** The methods the API has; anything else is refused here (undici's Request rejects some of them). */
const API_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Time limits of a connection, in ms (docs/operations.md): a client has `headers` to send its
 * headers and `request` to send the whole request; an idle keep-alive connection is closed after
 * `keepAlive`, longer than the 60 s of common load balancers so that they never reuse a closed one.
 */
export function httpTimeouts(env = process.env) {
  const timeouts = {
    headers: Number(env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000),
    request: Number(env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000),
    keepAlive: Number(env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 65_000),
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`HTTP ${name} timeout must be a positive number of ms, not ${value}`);
  }
  if (timeouts.headers > timeouts.request) throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return timeouts;
}

/** Applies the limits and the half-open rule to a node:http server. */
export function configureServer(server, timeouts = httpTimeouts()) {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
  // A client may send its request and then close its side (FIN): it still gets its answer.
  // Without this, Node drops the request and the client sees a closed connection, even though a
  // quote may have been committed.
  server.httpAllowHalfOpen = true;
  server.on('clientError', answerClientError);
}

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

/** Answers an API request Next.js cannot answer in the envelope; returns false to let Next serve it. */
export function answeredAtEdge(request, response) {
  const url = request.url ?? '/';
  if (!isApiPath(url)) return false;
  if (!API_METHODS.has(request.method)) {
    send(response, url, 405, 'method_not_allowed', `${request.method} is not a method of this API.`, {
      allow: [...API_METHODS].join(', '),
    });
    return true;
  }
  if (!wellEncoded(url)) {
    send(response, url, 400, 'invalid_request', 'The path is not valid: it has a malformed percent-encoding.');
    return true;
  }
  return false;
}

function wellEncoded(url) {
  const path = url.split('?', 1)[0];
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** What Node's parser refuses (a malformed request line or header, oversized headers, a timeout). */
function answerClientError(error, socket) {
  const headersSent = socket._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request was not received in time.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request headers are too large.']
        : [400, 'invalid_request', 'The request is not valid HTTP.'];
  const requestLine = /^[A-Z]+ (\S+)/.exec(error.rawPacket?.toString('latin1') ?? '');
  const requestId = newRequestId();
  const body = JSON.stringify(envelope(requestLine?.[1] ?? '/v1', code, message, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const reasons = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function send(response, url, status, code, message, headers = {}) {
  const requestId = newRequestId();
  const body = JSON.stringify(envelope(url, code, message, requestId));
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    ...headers,
  });
  response.end(body);
}

/** The error body of spec 2.1, or of the account surface (spec 4.3) under /v1/accounts. */
function envelope(url, code, message, requestId) {
  return url.startsWith('/v1/accounts')
    ? { error: { code, message, param: '', request_id: requestId } }
    : { error: { code, message, requestId } };
}

/** The router given the web Request it expects, its Response written back. */
export async function serveApi(router, request, response) {
  const body = bodyStream(request);
  // A route that refuses before reading the body (401, 429) leaves it unread: read it to the end
  // (and drop it), so that the next request on this keep-alive connection can be parsed.
  response.once('finish', () => {
    if (!request.complete) body.drain();
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
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } }));
  }
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
  const drain = () => {
    dropping = true;
    request.resume();
  };
  const stream = new ReadableStream(
    {
      start(controller) {
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
  return { stream, drain };
}
