import { describe, expect, it } from 'vitest';
import { acceptQuoteRequestSchema } from '@/lib/leads/schemas';
import { acceptanceBody, checkContact, lastDay, localToday, NO_CONTACT, readAcceptanceAnswer } from './acceptance-request';

const NOW = new Date(2026, 11, 2, 12); // the customer's own calendar: 2 December 2026
const filled = { ...NO_CONTACT, name: ' Ada ', email: ' ada@example.com ', consent: true };

describe('the acceptance form before it is sent', () => {
  it('asks for a name, a way to reach them and consent, in the page’s words', () => {
    expect(checkContact(NO_CONTACT, NOW)).toEqual({
      name: 'Tell us your name.',
      email: 'Give an email address or a phone number, so that they can reach you.',
      consent: 'Tick the box to agree to be contacted.',
    });
    expect(checkContact({ ...filled, email: '', phone: '+1 555 0100' }, NOW)).toEqual({});
    expect(checkContact({ ...filled, email: 'ada@' }, NOW)).toEqual({ email: 'That email address doesn’t look right.' });
    expect(checkContact({ ...filled, phone: 'call me' }, NOW)).toEqual({ phone: 'Use digits, spaces and + ( ) - only.' });
  });

  it('takes days from today to a day short of two years ahead on the customer’s calendar, as the date box offers them', () => {
    // The service takes 730 days from its UTC today; a day less holds on any calendar west or east of UTC.
    expect([localToday(NOW), lastDay(NOW)]).toEqual(['2026-12-02', '2028-11-30']);
    expect(checkContact({ ...filled, preferredDate: '2026-12-02' }, NOW)).toEqual({});
    expect(checkContact({ ...filled, preferredDate: '2028-11-30' }, NOW)).toEqual({});
    expect(Object.keys(checkContact({ ...filled, preferredDate: '2026-12-01' }, NOW))).toEqual(['preferredDate']);
    expect(Object.keys(checkContact({ ...filled, preferredDate: '2028-12-01' }, NOW))).toEqual(['preferredDate']);
  });

  it('sends what the service accepts: trimmed, without the boxes left empty', () => {
    const body = acceptanceBody('7c9e6679-7425-40de-944b-e07fc1f90ae7', { ...filled, note: '  ', preferredDate: '2026-12-24' }, 'token');
    expect(body).toEqual({
      businessId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      contact: { name: 'Ada', email: 'ada@example.com' },
      preferredDate: '2026-12-24',
      consent: true,
      formToken: 'token',
    });
    expect(acceptQuoteRequestSchema.safeParse(body).success).toBe(true);
  });
});

describe('the service’s answer, for the customer', () => {
  const refusal = (status: number, error: { code: string; message: string; details?: object }, mayWait = true) =>
    readAcceptanceAnswer({ status, body: { error }, requestId: 'req_1', mayWait });

  it('says accepted, expired, or accepted before (when, never who)', () => {
    const acceptance = { acceptedAt: '2026-12-02T12:00:00.000Z', preferredDate: null } as never;
    expect(readAcceptanceAnswer({ status: 201, body: { data: { acceptance } } as never, requestId: null, mayWait: true })).toEqual({ kind: 'accepted', acceptance });
    expect(refusal(409, { code: 'quote_expired', message: 'expired' })).toEqual({ kind: 'expired' });
    expect(refusal(409, { code: 'quote_already_accepted', message: 'accepted', details: { acceptedAt: '2026-12-01T09:00:00.000Z' } })).toEqual({
      kind: 'accepted_before',
      acceptedAt: '2026-12-01T09:00:00.000Z',
    });
  });

  it('waits once when sent too fast, then says so in words', () => {
    const tooFast = { code: 'validation_failed', message: 'too fast', details: { formToken: 'too_fast' } };
    expect(refusal(422, tooFast)).toEqual({ kind: 'too_fast' });
    expect(refusal(422, tooFast, false).kind).toBe('refused');
  });

  it('puts a refused field’s sentence under its box, and asks for a fresh form when it was open too long', () => {
    const answer = refusal(422, { code: 'validation_failed', message: 'bad', details: { fields: { 'contact.phone': ['Invalid phone'], unknown: ['x'] } } });
    expect(answer).toEqual({ kind: 'fields', errors: { phone: expect.stringMatching(/^Enter a phone number/) } });
    expect(refusal(422, { code: 'validation_failed', message: 'bad', details: { fields: { formToken: ['This form has expired.'] } } })).toEqual({
      kind: 'form_expired',
      message: 'This form has expired.',
    });
  });

  it('says what to do when the answer names no field, even when it is not JSON', () => {
    expect(refusal(429, { code: 'rate_limited', message: 'slow down' })).toEqual({
      kind: 'refused',
      message: 'Lots of people are accepting quotes right now. Please try again in a minute.',
    });
    const broken = readAcceptanceAnswer({ status: 502, body: null, requestId: null, mayWait: true });
    expect(broken.kind).toBe('refused');
    expect((broken as { message: string }).message).toMatch(/\.$/);
  });
});
