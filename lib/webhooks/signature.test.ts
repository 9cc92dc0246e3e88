import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifyWebhookSignature } from './signature';

const secret = 'whsec_test_secret_value';
const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', version: 1, data: {} });
const now = new Date('2026-11-22T10:00:00Z');
const t = Math.floor(now.getTime() / 1000);

describe('webhook signatures', () => {
  it('accepts the service’s own signature over the raw body', () => {
    expect(verifyWebhookSignature({ rawBody: body, header: signatureHeader([secret], t, body), secret, now })).toEqual({ ok: true, timestamp: t });
  });

  it('matches an independent HMAC computation (Stripe-style t.body, secret as shown)', async () => {
    const { createHmac } = await import('node:crypto');
    expect(computeSignature(secret, t, body)).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  });

  it('refuses a tampered body, including re-serialised JSON', () => {
    const header = signatureHeader([secret], t, body);
    expect(verifyWebhookSignature({ rawBody: body.replace('webhook.test', 'quote.paid'), header, secret, now })).toEqual({ ok: false, reason: 'no_match' });
    expect(verifyWebhookSignature({ rawBody: JSON.stringify(JSON.parse(body), null, 1), header, secret, now }).ok).toBe(false);
  });

  it('refuses the wrong secret', () => {
    expect(verifyWebhookSignature({ rawBody: body, header: signatureHeader(['whsec_other'], t, body), secret, now }).ok).toBe(false);
  });

  it('refuses timestamps outside the tolerance, either way', () => {
    const old = signatureHeader([secret], t - 301, body);
    expect(verifyWebhookSignature({ rawBody: body, header: old, secret, now })).toEqual({ ok: false, reason: 'too_old' });
    expect(verifyWebhookSignature({ rawBody: body, header: signatureHeader([secret], t + 301, body), secret, now }).ok).toBe(false);
    expect(verifyWebhookSignature({ rawBody: body, header: old, secret, now, toleranceSeconds: 600 }).ok).toBe(true);
  });

  it('accepts either of two v1 values during a rotation overlap', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], t, body);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature({ rawBody: body, header, secret: 'whsec_old', now }).ok).toBe(true);
    expect(verifyWebhookSignature({ rawBody: body, header, secret: 'whsec_new', now }).ok).toBe(true);
    expect(verifyWebhookSignature({ rawBody: body, header, secret: 'whsec_neither', now }).ok).toBe(false);
  });

  it('refuses malformed headers', () => {
    for (const header of [undefined, '', 't=abc,v1=00', `t=${t}`, 'v1=abcd', `t=${t},v1=`]) {
      expect(verifyWebhookSignature({ rawBody: body, header, secret, now })).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});
