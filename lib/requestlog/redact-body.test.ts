import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loggedJson, loggedText, MAX_LOGGED_BODY_BYTES, REDACTED } from './redact-body';

const apiKey = fc.constantFrom('sk_test_', 'sk_live_').chain((p) => fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((s) => p + s));
const webhookSecret = fc.stringMatching(/^[A-Za-z0-9+/=_-]{8,40}$/).map((s) => `whsec_${s}`);
const secret = fc.oneof(apiKey, webhookSecret);

describe('what the request log keeps of a body', () => {
  it('takes out a customer\'s contact details and note by name, whole objects included', () => {
    const logged = JSON.parse(
      loggedJson({
        businessId: 'b1',
        contact: { name: 'Alex Rivera', email: 'alex@example.com', phone: '+1 555 0100' },
        note: 'The side gate is open.',
        preferredDate: '2026-12-03',
        lead: { id: 'l1', contact: null, email: 'a@b.example' },
      })!,
    );
    expect(logged).toEqual({
      businessId: 'b1',
      contact: REDACTED,
      note: REDACTED,
      preferredDate: '2026-12-03',
      lead: { id: 'l1', contact: null, email: REDACTED },
    });
  });

  it('keeps no value a person typed of a body that carries personal data, whatever the field', () => {
    const sent = {
      businessId: 'b1',
      contact: { name: 'Alex Rivera', email: 'alex@example.com' },
      comments: 'call me on +1 555 0100',
      extra: ['alex@example.com', 7, true, null],
      preferredDate: '2026-12-03',
      consent: true,
    };
    expect(JSON.parse(loggedText(JSON.stringify(sent), { personalData: true })!)).toEqual({
      businessId: 'b1',
      contact: REDACTED,
      comments: REDACTED,
      extra: [REDACTED, 7, true, null],
      preferredDate: '2026-12-03',
      consent: true,
    });
    expect(loggedText('name=Alex&email=alex@example.com', { personalData: true })).toMatch(/^\[not JSON: 32 bytes not kept/);
    // Without it, a field not named as personal keeps its value.
    expect(loggedText(JSON.stringify(sent))).toContain('call me on');
  });

  it('takes out secrets by field name, keeps ids and everything else', () => {
    const logged = JSON.parse(
      loggedJson({
        apiKey: { id: 'k1', name: 'CI key' },
        apiKeyId: '7f1c…',
        secret: 'anything at all',
        password: 'hunter2',
        nested: [{ sessionToken: 'abc', token: null, displayPrefix: 'sk_test_', last4: 'ab12' }],
        offeringId: 'window_cleaning',
      })!,
    );
    expect(logged).toEqual({
      apiKey: { id: 'k1', name: 'CI key' },
      apiKeyId: '7f1c…',
      secret: REDACTED,
      password: REDACTED,
      nested: [{ sessionToken: REDACTED, token: null, displayPrefix: 'sk_test_', last4: 'ab12' }],
      offeringId: 'window_cleaning',
    });
  });

  it('never keeps an API key or webhook secret, wherever it stands in the body or text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), secret, fc.string(), (value, s, field) => {
        const bodies = [loggedJson({ [field]: s, other: value }), loggedJson([value, `before ${s} after`]), loggedText(`{not json ${s}`), loggedText(JSON.stringify({ note: s }))];
        for (const body of bodies) expect(body).not.toContain(s);
      }),
    );
  });

  it('walks a stranger’s deep nesting without exhausting the stack, and says where it stopped', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    for (const personalData of [false, true]) expect(loggedText(deep, { personalData })).toContain('[nested deeper than 33 levels: not kept]');
  });

  it('keeps at most 8 KB and says how much it left out', () => {
    const logged = loggedJson({ text: 'é'.repeat(20_000) })!;
    expect(Buffer.byteLength(logged, 'utf8')).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(logged).toMatch(/… \[[\d,]+ more bytes not kept\]$/);
    expect(loggedText('')).toBeNull();
    expect(loggedText('not json')).toBe('not json');
  });
});
