import type { AnswerOf } from '@/lib/http/contract';
import type { acceptQuoteContract, getAcceptanceStateContract } from '@/app/v1/public_quotes/contract';
import { FIELD_SENTENCES, fieldSentence, refusalSentence } from './acceptance-messages';

// The acceptance form's request and what the service's answer means for the customer, apart from
// how the form looks (accept-form.tsx): checked before sending, and read after, in the page's words.

// The acceptance routes' answers, typed by their contract (app/v1/public_quotes/contract.ts).
export type AcceptanceState = AnswerOf<typeof getAcceptanceStateContract>;
export type PublicAcceptance = AnswerOf<typeof acceptQuoteContract>['acceptance'];

export type ContactFields = { name: string; email: string; phone: string; preferredDate: string; note: string; consent: boolean; website: string };
export const NO_CONTACT: ContactFields = { name: '', email: '', phone: '', preferredDate: '', note: '', consent: false, website: '' };
const FIELD_NAMES = Object.keys(NO_CONTACT);

const calendarDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** Today on the customer's own calendar: the earliest day they can ask for. */
export function localToday(now = new Date()): string {
  return calendarDay(now);
}
/** The last day they can ask for: the service takes days up to two years ahead. */
export function lastDay(now = new Date()): string {
  return calendarDay(new Date(now.getTime() + 2 * 365 * 86_400_000 - 86_400_000));
}

/** What stops the form from being sent, per field, in the page's words (none: it may go). */
export function checkContact(fields: ContactFields, now = new Date()): Record<string, string> {
  const found: Record<string, string> = {};
  if (!fields.name.trim()) found.name = 'Tell us your name.';
  if (!fields.email.trim() && !fields.phone.trim()) found.email = 'Give an email address or a phone number, so that they can reach you.';
  else if (fields.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.trim())) found.email = 'That email address doesn’t look right.';
  if (fields.phone.trim() && !/^\+?[0-9 ().-]{6,30}$/.test(fields.phone.trim())) found.phone = 'Use digits, spaces and + ( ) - only.';
  // A date box takes a typed day outside its range: said here, in the same words the page uses for the service's refusal.
  if (fields.preferredDate && (fields.preferredDate < localToday(now) || fields.preferredDate > lastDay(now))) found.preferredDate = FIELD_SENTENCES.preferredDate;
  if (!fields.consent) found.consent = 'Tick the box to agree to be contacted.';
  return found;
}

/** The body of POST /v1/public_quotes/{id}/acceptance: trimmed, and without what was left empty. */
export function acceptanceBody(businessId: string, fields: ContactFields, formToken: string) {
  const email = fields.email.trim();
  const phone = fields.phone.trim();
  const note = fields.note.trim();
  return {
    businessId,
    contact: { name: fields.name.trim(), ...(email ? { email } : {}), ...(phone ? { phone } : {}) },
    ...(note ? { note } : {}),
    ...(fields.preferredDate ? { preferredDate: fields.preferredDate } : {}),
    consent: true,
    formToken,
    ...(fields.website ? { website: fields.website } : {}),
  };
}

/** What an answer to the acceptance means for the customer. */
export type AcceptanceAnswer =
  | { kind: 'accepted'; acceptance: PublicAcceptance }
  | { kind: 'expired' }
  /** Accepted before with other details: when, never who. */
  | { kind: 'accepted_before'; acceptedAt: string }
  /** Sent quicker than the service allows (autofill is quick): it may be sent again in a moment. */
  | { kind: 'too_fast' }
  /** The form was open too long: a fresh one is needed, and the same details sent again. */
  | { kind: 'form_expired'; message: string }
  | { kind: 'fields'; errors: Record<string, string> }
  | { kind: 'refused'; message: string };

type ErrorBody = { error: { code: string; message: string; details?: { fields?: Record<string, string[]>; formToken?: string; acceptedAt?: string } } };

/**
 * Reads the service's answer (its body, parsed, or null when it was not JSON). "Too fast" is an
 * answer only to a first try (`mayWait`); a second is refused in words.
 */
export function readAcceptanceAnswer(
  { status, body, requestId, mayWait }: { status: number; body: { data: AnswerOf<typeof acceptQuoteContract> } | ErrorBody | null; requestId: string | null; mayWait: boolean },
): AcceptanceAnswer {
  if (status >= 200 && status < 300 && body && 'data' in body) return { kind: 'accepted', acceptance: body.data.acceptance };
  const error = body && 'error' in body ? body.error : null;
  if (error?.code === 'quote_expired') return { kind: 'expired' };
  if (error?.code === 'quote_already_accepted' && error.details?.acceptedAt) return { kind: 'accepted_before', acceptedAt: error.details.acceptedAt };
  if (error?.code === 'rate_limited') return { kind: 'refused', message: 'Lots of people are accepting quotes right now. Please try again in a minute.' };
  if (error?.details?.formToken === 'too_fast' && mayWait) return { kind: 'too_fast' };
  const fieldErrors = error?.details?.fields ?? {};
  if (fieldErrors.formToken) return { kind: 'form_expired', message: fieldErrors.formToken[0] };
  const errors: Record<string, string> = {};
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const name = path.replace(/^contact\./, '');
    if (FIELD_NAMES.includes(name)) errors[name] = fieldSentence(name, messages[0]);
  }
  if (Object.keys(errors).length > 0) return { kind: 'fields', errors };
  return { kind: 'refused', message: refusalSentence(error, status, requestId) };
}
