import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './generated/events.js';

/** The header a delivery's signature comes in: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export const SIGNATURE_HEADER = 'service-signature';

export type WebhookVerificationFailure = 'missing_signature' | 'malformed_signature' | 'timestamp_outside_tolerance' | 'no_matching_signature' | 'malformed_body';

export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a delivery and returns its event: the HMAC-SHA256 of `<t>.<raw body>` with the endpoint's
 * secret must equal one of the `v1` values (compared in constant time; two during a secret's
 * rotation) and `t` must be within `toleranceSeconds` (300 by default) of now. Pass the body
 * exactly as received, before any JSON parsing. The event is typed by the catalogue:
 * `switch (event.type)` narrows `event.data`.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const header = headerOf(headers, SIGNATURE_HEADER);
  if (!header) throw new WebhookVerificationError('missing_signature', `No ${SIGNATURE_HEADER} header: not a delivery of this service.`);
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const candidates = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value);
  const timestamp = Number(t);
  if (!t || !Number.isInteger(timestamp) || candidates.length === 0) {
    throw new WebhookVerificationError('malformed_signature', `The ${SIGNATURE_HEADER} header is not t=<seconds>,v1=<hex>.`);
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_outside_tolerance', `The signature's time is ${now - timestamp} s from now; at most ${tolerance} s is accepted.`);
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no_matching_signature', 'No signature matches this secret: a wrong secret, or a body changed on the way.');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON.');
  }
}

/** The signature header of a body, as the service makes it: for tests and for forwarding tools. */
export function signWebhook(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex')}`;
}

function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(',') : found;
}
