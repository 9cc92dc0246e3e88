import { ServiceError, type ErrorCode } from '../errors/service-error';

export const DEFAULT_MAX_BODY_BYTES = 100_000;

/**
 * Reads and parses a JSON body, refusing more than `maxBytes` without buffering it all.
 * An empty body parses as `undefined` so that the schema says what is required.
 */
export async function readJsonBody(request: Request, maxBytes: number, validationCode: ErrorCode): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body (a load generator stopping, a dropped connection): its
      // fault, not ours, and nobody is left to read the answer.
      throw new ServiceError('invalid_request', 'The connection closed before the request body was complete.');
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidBody(validationCode, 'must be a valid JSON document');
  }
  // JSON may escape half of a surrogate pair (\ud800): such strings are not text, and would
  // break canonical JSON (idempotency fingerprints, artifact hashes) further on.
  if (/\\u[dD][89a-fA-F]/.test(text) && !wellFormed(parsed)) throw invalidBody(validationCode, 'must not contain unpaired surrogates');
  return parsed;
}

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value && typeof value === 'object') return Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v));
  return true;
}

function invalidBody(code: ErrorCode, message: string) {
  return new ServiceError(code, `The request body is not valid: it ${message}.`, { details: { fields: { body: [message] } }, param: 'body' });
}

function tooLarge(maxBytes: number) {
  return new ServiceError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
