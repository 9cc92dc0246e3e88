import { QuotePricingConnectionError, QuotePricingError } from '../index.js';
import { duration } from './words.js';

/** Why a request got no answer, in a few words, from the error fetch threw (its `cause` chain). */
export function unreachableReason(error: unknown): string {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: string }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || (cause as Error).name === 'TimeoutError') return 'timed out';
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
    if (code === 'CERT_HAS_EXPIRED' || code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS: ${(cause as Error).message}`;
  }
  const innermost = deepestCause(error);
  return innermost instanceof Error ? innermost.message : String(innermost);
}

function deepestCause(error: unknown): unknown {
  let cause = error;
  for (let depth = 0; depth < 5 && (cause as { cause?: unknown })?.cause; depth++) cause = (cause as { cause: unknown }).cause;
  return cause;
}

/** Whether the request never got an answer (as opposed to an answer that refused it). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof QuotePricingConnectionError || (error instanceof TypeError && error.message === 'fetch failed');
}

/** The line for a service that could not be reached, saying what to do. */
export function cannotReachService(baseUrl: string, error: unknown): string {
  return `Cannot reach the service at ${baseUrl} (${unreachableReason(error)}). Is it running? Start it with \`npm start\`, or set QPS_BASE_URL.`;
}

/** What the service's refusal means for the person at the terminal, and what to do about it. */
export function explainRefusal(status: number, code: string, message: string, retryAfterSeconds: number | null = null): string {
  if (code === 'invalid_api_key' || code === 'revoked_api_key' || status === 401) {
    return `The service refused the API key (${code}): ${message} Check QPS_API_KEY (or --api-key): a Test key of this service, sk_test_…; .data/demo.json has one on a local start.`;
  }
  if (code === 'insufficient_scope') {
    return `The API key lacks a scope this needs (insufficient_scope): ${message} Make a new Test key (new Test keys have every scope qps needs).`;
  }
  const wait = retryAfterSeconds !== null ? ` Try again in ${duration(Math.ceil(retryAfterSeconds) * 1000)}.` : '';
  return `The service refused it (${status} ${code}): ${message}${wait}`;
}

/** One line for any error a command ends with; never the key itself. */
export function explain(error: unknown, context: { baseUrl: string; apiKey?: string }): string {
  let line: string;
  if (error instanceof QuotePricingError) line = explainRefusal(error.status, error.code, error.message, error.retryAfterSeconds);
  else if (isUnreachable(error)) line = cannotReachService(context.baseUrl, error);
  else line = error instanceof Error ? error.message : String(error);
  return redact(line, context.apiKey);
}

/** The text with the key (if it appears) replaced by its prefix. */
export function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 8) return text;
  return text.split(apiKey).join(`${apiKey.slice(0, apiKey.indexOf('_', 3) + 1) || 'sk_'}…`);
}
