import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../sealing/sealing-key';

/**
 * The hosted page's acceptance form carries a token that says which quote it was shown for and
 * when, signed with a key every instance derives alike. A robot that posts without loading the
 * form, or faster than a person could type a name, is refused; no third-party service is asked.
 */
export const FORM_MIN_AGE_MS = 2_000;
export const FORM_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const mac = (quoteIntentId: string, issuedAt: number) =>
  createHmac('sha256', derivedKey('acceptance-form')).update(`${quoteIntentId}.${issuedAt}`).digest('base64url');

export function issueFormToken(quoteIntentId: string, now: Date): string {
  const issuedAt = now.getTime();
  return `${issuedAt}.${mac(quoteIntentId, issuedAt)}`;
}

export type FormTokenProblem = 'invalid' | 'too_fast' | 'stale';

/** Why the token does not let the form be submitted now, or null when it does. */
export function formTokenProblem(token: string, quoteIntentId: string, now: Date): FormTokenProblem | null {
  const [issued, signature] = token.split('.');
  const issuedAt = Number(issued);
  if (!/^\d{1,15}$/.test(issued ?? '') || !signature) return 'invalid';
  const expected = Buffer.from(mac(quoteIntentId, issuedAt));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  const age = now.getTime() - issuedAt;
  if (age < FORM_MIN_AGE_MS) return 'too_fast';
  if (age > FORM_MAX_AGE_MS) return 'stale';
  return null;
}

/** Why a submitted acceptance form is refused before anything is read: a filled trap field, or its token. */
export function acceptanceFormRefusal(form: { formToken: string; website?: string }, quoteIntentId: string, now: Date): FormTokenProblem | null {
  // A field people never see: only robots fill it. Told nothing more than a person would be.
  return form.website ? 'invalid' : formTokenProblem(form.formToken, quoteIntentId, now);
}
