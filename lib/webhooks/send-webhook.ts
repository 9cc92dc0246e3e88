import https from 'node:https';
import { guardedLookup, isAlwaysForbiddenAddress, isForbiddenAddress, targetVerdict } from './target-policy';

/** Spec 6.5: an attempt that has not answered within 10 seconds has failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;

/** Bodies larger than this are not read to the end: the connection is dropped instead. */
const DRAIN_BYTES = 64 * 1024;

export type SendResult = {
  status: number | null;
  excerpt: string | null;
  /** The receiver's response headers, at most 30, each value cut at 200 characters. */
  headers: Record<string, string> | null;
  error: string | null;
  latencyMs: number;
};

const MAX_RESPONSE_HEADERS = 30;

// Connections to receivers are kept alive and reused: a TLS handshake per delivery would cost
// more than the delivery. A new connection is made only after the guarded DNS lookup. Sockets
// per host are not capped here: each endpoint's send window is the cap, so endpoints that share
// a host never queue behind each other (a queued request would time out unsent).
const agents = new Map<boolean, https.Agent>();
function agentFor(allowPrivateTargets: boolean): https.Agent {
  let agent = agents.get(allowPrivateTargets);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64, timeout: 30_000 });
    agents.set(allowPrivateTargets, agent);
  }
  return agent;
}

/**
 * One HTTPS POST. Never throws: a timeout, a refused target or a broken connection is a
 * result like any other. The URL goes through the policy endpoints are created under
 * (targetVerdict: literal addresses, loopback and metadata names), and the host's addresses are
 * checked again after DNS: non-public ones are refused unless private targets are allowed, and
 * link-local ones (and others no deployment delivers to) always.
 */
export function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivateTargets: boolean; timeoutMs?: number },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Node skips `lookup` for literal IP addresses, so the policy checks those here.
  const forbidden = options.allowPrivateTargets ? isAlwaysForbiddenAddress : isForbiddenAddress;
  const { problem } = targetVerdict(url, options.allowPrivateTargets);
  if (problem) return Promise.resolve({ status: null, excerpt: null, headers: null, error: storableText(`refused: ${problem}`), latencyMs: 0 });
  return new Promise((resolve) => {
    let settled = false;
    /** `keepConnection`: the answer was read to its end, so the socket can serve the next one. */
    const finish = (result: Omit<SendResult, 'latencyMs'>, keepConnection = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!keepConnection) request.destroy();
      resolve({ ...result, latencyMs: elapsed() });
    };
    const request = https.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(forbidden),
        agent: agentFor(options.allowPrivateTargets),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (keepConnection: boolean) =>
          finish(
            { status: response.statusCode ?? null, excerpt: storableText(Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES)), headers: keptHeaders(response.headers), error: null },
            keepConnection,
          );
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= DRAIN_BYTES) done(false);
        });
        response.on('end', () => done(true));
        response.on('error', (error) => finish({ status: response.statusCode ?? null, excerpt: null, headers: keptHeaders(response.headers), error: error.message }));
      },
    );
    const timer = setTimeout(
      () => finish({ status: null, excerpt: null, headers: null, error: `no answer within ${(options.timeoutMs ?? ATTEMPT_TIMEOUT_MS) / 1000} s` }),
      options.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
    );
    request.on('error', (error) => finish({ status: null, excerpt: null, headers: null, error: storableText(error.message) }));
    request.end(body);
  });
}

function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, MAX_RESPONSE_HEADERS)) {
    if (value !== undefined) kept[name] = storableText((Array.isArray(value) ? value.join(', ') : value).slice(0, 200));
  }
  return kept;
}

/** What a receiver sent, as PostgreSQL text can hold it: no NUL characters. */
function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
