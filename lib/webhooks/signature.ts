import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature of a delivery. */
export const SIGNATURE_HEADER = 'Service-Signature';

/** hex HMAC-SHA256 of `<t>.<body>`, keyed with the secret exactly as shown (`whsec_` included). */
export function computeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]`: one v1 per secret (two during a rotation overlap). */
export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, body)}`)].join(',');
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'too_old' | 'no_match' };

/**
 * What a receiver runs on every delivery (see docs/webhooks.md): recompute the HMAC over the
 * raw body exactly as received, compare timing-safely with every v1 value, and refuse
 * timestamps outside the tolerance (300 s recommended).
 */
export function verifyWebhookSignature(input: {
  rawBody: string;
  header: string | null | undefined;
  secret: string;
  toleranceSeconds?: number;
  now?: Date;
}): VerifyResult {
  const parts = (input.header ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v);
  const timestamp = Number(t);
  if (!t || !Number.isInteger(timestamp) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (input.toleranceSeconds ?? 300)) return { ok: false, reason: 'too_old' };
  const expected = Buffer.from(computeSignature(input.secret, timestamp, input.rawBody), 'hex');
  const match = signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true, timestamp } : { ok: false, reason: 'no_match' };
}
