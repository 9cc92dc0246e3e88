import net from 'node:net';
import { inject } from 'vitest';

export type RawResponse = { status: number; headers: Record<string, string>; body: string; elapsedMs: number };

/**
 * One HTTP/1.1 exchange on a raw socket, for what fetch cannot send: a request followed by a
 * half-close, a body that arrives slowly or never, bytes no client library would write. Parts are
 * written `gapMs` apart; `halfClose` ends the client's side after the last one. Resolves with the
 * first response once the server closes the connection (send `Connection: close`), or rejects.
 */
export async function rawExchange(
  parts: (string | Buffer)[],
  options: { halfClose?: boolean; gapMs?: number; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(inject('baseUrl'));
  const started = performance.now();
  const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve());
    socket.on('close', () => resolve());
    socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
  });
  const timer = setTimeout(() => socket.destroy(new Error('no answer in time')), options.timeoutMs ?? 30_000);
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    for (const [i, part] of parts.entries()) {
      if (i > 0 && options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
      if (socket.destroyed) break;
      socket.write(part);
    }
    if (options.halfClose) socket.end();
    await closed;
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
  return { ...parseResponse(Buffer.concat(chunks)), elapsedMs: performance.now() - started };
}

function parseResponse(bytes: Buffer): Omit<RawResponse, 'elapsedMs'> {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP response: ${JSON.stringify(bytes.toString('utf8', 0, 200))}`);
  const [statusLine, ...lines] = bytes.toString('latin1', 0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  let body = bytes.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const decoded: Buffer[] = [];
    for (;;) {
      const end = body.indexOf('\r\n');
      const size = parseInt(body.toString('latin1', 0, end), 16);
      if (!size) break;
      decoded.push(body.subarray(end + 2, end + 2 + size));
      body = body.subarray(end + 2 + size + 2);
    }
    body = Buffer.concat(decoded);
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
}
