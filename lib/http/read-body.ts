import { isUtf8 } from 'node:buffer';
import { ServiceError, type ErrorCode } from '../errors/service-error';
import { jsonViolation, NOT_UTF8 } from '../json/json-limits';
import { textOfUtf8 } from '../requestlog/storable-text';

export const DEFAULT_MAX_BODY_BYTES = 100_000;

/**
 * Reads and parses a JSON body, refusing more than `maxBytes` without buffering it all.
 * An empty body parses as `undefined` so that the schema says what is required. What any JSON
 * body may hold is checked here for every route (json-limits.ts).
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  validationCode: ErrorCode,
  /** Receives the body's text as sent, before it is judged (the request log keeps failures). */
  keepText?: (text: string) => void,
): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      // The server's request timeout ran out while the body was still coming (scripts/http-edge.mjs):
      // the route answers it, once, in its own envelope.
      if ((error as { code?: unknown } | null)?.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        throw new ServiceError('request_timeout', 'The request body was not received in time.');
      }
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
  const bytes = Buffer.concat(chunks);
  const text = bytes.toString('utf8');
  // U+FFFD in the text was sent as such, or stands in for bytes that are not UTF-8; those the log
  // keeps escaped (what was sent, not the stand-in).
  const notUtf8 = text.includes('\uFFFD') && !isUtf8(bytes);
  keepText?.(notUtf8 ? textOfUtf8(bytes) : text);
  // JSON is UTF-8 (RFC 8259): bytes that are not would reach the quote as U+FFFD, a value nobody sent.
  if (notUtf8) throw invalidBody(validationCode, NOT_UTF8);
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidBody(validationCode, 'must be a valid JSON document');
  }
  const violation = jsonViolation(parsed, 'body');
  if (violation) throw invalidBody(validationCode, violation.message, violation.field);
  return parsed;
}

function invalidBody(code: ErrorCode, message: string, field = 'body') {
  const where = field === 'body' ? 'The request body is not valid: it' : `Invalid body: ${field}:`;
  return new ServiceError(code, `${where} ${message}.`, { details: { fields: { [field]: [message] } }, param: field });
}

function tooLarge(maxBytes: number) {
  return new ServiceError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
