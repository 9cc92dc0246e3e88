import { describe, expect, it } from 'vitest';
import { acceptQuoteRequestSchema } from '@/lib/leads/schemas';
import { asSentence, fieldSentence, refusalSentence } from './acceptance-messages';

describe('acceptance form messages', () => {
  it('gives every field the service can refuse a sentence of the page’s own', () => {
    // What the service answers for each field (its schema's messages), as the page receives them.
    const refused = acceptQuoteRequestSchema.safeParse({
      businessId: 'not-a-uuid',
      contact: { name: ' ', email: 'nope', phone: 'call me' },
      note: 'x'.repeat(1001),
      preferredDate: '2026-02-30',
      consent: false,
      formToken: 't',
    });
    expect(refused.success).toBe(false);
    const byField = new Map(refused.error!.issues.map((issue) => [String(issue.path.at(-1)), issue.message]));
    for (const field of ['name', 'email', 'phone', 'note', 'preferredDate', 'consent']) {
      const sentence = fieldSentence(field, byField.get(field));
      expect(sentence, field).toMatch(/^[A-Z].*\.$/);
      expect(sentence, field).not.toBe(byField.get(field));
    }
    expect(fieldSentence('preferredDate', 'pick a day from today on, within two years')).toBe('Pick a day from today on, within the next two years.');
  });

  it('makes any other message a sentence', () => {
    expect(fieldSentence('website', 'leave this empty')).toBe('Leave this empty.');
    expect(asSentence('already a sentence.')).toBe('Already a sentence.');
  });

  it('says what a refusal without a field means, and what to do', () => {
    expect(refusalSentence({ code: 'not_found', message: 'Quote 1 does not exist.' }, 404, 'r1')).toBe(
      'We couldn’t find this quote any more. Open the link to your quote again, or get a new price.',
    );
    expect(refusalSentence({ code: 'internal_error', message: 'internal error' }, 500, 'req_1')).toBe('Something went wrong on our side. Please try again (reference req_1).');
    expect(refusalSentence(null, 502, null)).toBe('Something went wrong on our side. Please try again.');
    expect(refusalSentence({ code: 'something_new', message: 'this quote was accepted before' }, 409, null)).toBe('This quote was accepted before.');
  });
});
