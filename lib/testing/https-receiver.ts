import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request as a receiver got it: the raw body exactly as received, for signature checks. */
export type Received = { headers: Record<string, string | string[] | undefined>; rawBody: string; receivedAt: Date };

/**
 * How a receiver answers: a status (at once, after a while, or once `until` settles, for tests
 * that must see a state before any answer arrives), or hang past the attempt timeout, or drop
 * the connection.
 */
export type Behaviour = number | { status: number; afterMs: number; until?: Promise<unknown>; body?: string } | 'hang' | 'close';

/**
 * A real HTTPS receiver on loopback with the test certificate (signed by the test CA that the
 * service trusts through NODE_EXTRA_CA_CERTS). `behaviour(n)` answers the n-th request (0-based).
 */
export async function startReceiver(behaviour: (index: number) => Behaviour = () => 200) {
  const received: Received[] = [];
  // requests whose answer has not been sent yet, and the most there were at once
  const load = { inFlight: 0, peakInFlight: 0 };
  const server = https.createServer(
    { key: readFileSync(process.env.TEST_TLS_KEY!), cert: readFileSync(process.env.TEST_TLS_CERT!) },
    (request, response) => {
      const chunks: Buffer[] = [];
      load.peakInFlight = Math.max(load.peakInFlight, ++load.inFlight);
      response.on('close', () => load.inFlight--);
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const index = received.length;
        received.push({ headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8'), receivedAt: new Date() });
        const answer = behaviour(index);
        if (answer === 'hang') return; // never answers; the sender's 10 s timeout must fire
        if (answer === 'close') return request.socket.destroy();
        const { status, afterMs, until, body } = typeof answer === 'number' ? { status: answer, afterMs: 0, until: undefined, body: undefined } : answer;
        const reply = () =>
          response.writeHead(status, { 'content-type': 'text/plain' }).end(body ?? (status < 300 ? 'ok' : 'receiver says no'));
        const replyLater = () => (afterMs > 0 ? setTimeout(reply, afterMs) : reply());
        if (until) void until.then(replyLater);
        else replyLater();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    received,
    load,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Answers held until `release()`: a test sees the sender's window full, and acts on it, before
 * any answer comes back, however slowly the window filled (an answer back early lets it send more).
 */
export function heldAnswers() {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  return { answer: (): Behaviour => ({ status: 200, afterMs: 0, until }), release };
}

/** An independent verifier for tests: HMAC-SHA256 over `<t>.<raw body>` with the secret as shown. */
export function signedBy(received: Received, secret: string): boolean {
  const header = String(received.headers['service-signature']);
  const t = /t=(\d+)/.exec(header)![1];
  const expected = createHmac('sha256', secret).update(`${t}.${received.rawBody}`).digest();
  return [...header.matchAll(/v1=([0-9a-f]+)/g)].some(([, hex]) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
