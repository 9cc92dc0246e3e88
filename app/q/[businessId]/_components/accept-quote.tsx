'use client';

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { AnswerOf } from '@/lib/http/contract';
import type { acceptQuoteContract, getAcceptanceStateContract } from '@/app/v1/public_quotes/contract';
import { FIELD_SENTENCES, fieldSentence, refusalSentence } from './acceptance-messages';
import { LocalTime } from './local-time';

// The acceptance routes' answers, typed by their contract (app/v1/public_quotes/contract.ts).
export type AcceptanceState = AnswerOf<typeof getAcceptanceStateContract>;
type PublicAcceptance = AnswerOf<typeof acceptQuoteContract>['acceptance'];

type Props = {
  businessId: string;
  businessName: string;
  quoteIntentId: string;
  acceptance: AcceptanceLoad;
};

type Fields = { name: string; email: string; phone: string; preferredDate: string; note: string; consent: boolean; website: string };
const EMPTY: Fields = { name: '', email: '', phone: '', preferredDate: '', note: '', consent: false, website: '' };
const FIELD_NAMES = Object.keys(EMPTY);

/** A day (`YYYY-MM-DD`) as the customer reads it: it is a calendar day, not an instant. */
const formatDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'full', timeZone: 'UTC' });
/** Today on the customer's own calendar: the earliest day they can ask for. */
function localToday(): string {
  return calendarDay(new Date());
}
/** The last day they can ask for: the service takes days up to two years ahead. */
function lastDay(): string {
  return calendarDay(new Date(Date.now() + 2 * 365 * 86_400_000 - 86_400_000));
}
const calendarDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Whether the quote was accepted, else its form or why there is none: what the server knew, or fetched here. */
export type AcceptanceLoad = { state: AcceptanceState | null; failed: boolean; reload(): Promise<AcceptanceState | null>; set(state: AcceptanceState): void };

export function useAcceptance(quoteIntentId: string, initial: AcceptanceState | null): AcceptanceLoad {
  const [state, setState] = useState<AcceptanceState | null>(initial);
  const [failed, setFailed] = useState(false);
  async function reload() {
    setFailed(false);
    try {
      const response = await fetch(`/v1/public_quotes/${quoteIntentId}/acceptance`);
      const body = (await response.json()) as { data?: AcceptanceState };
      if (!response.ok || !body.data) throw new Error(String(response.status));
      setState(body.data);
      return body.data;
    } catch {
      setFailed(true);
      return null;
    }
  }
  // Once per quote; a link to the quote came with what the server knew.
  useEffect(() => {
    if (!initial) void reload();
  }, [quoteIntentId]);
  return { state, failed, reload, set: setState };
}

/**
 * "Accept this quote" under a priced receipt: the customer leaves how to reach them; the
 * business gets a lead bound to this receipt. Accepted, the page says so whenever the quote's
 * link is opened again, even after the price's validity has passed.
 */
export function AcceptQuote({ businessId, businessName, quoteIntentId, acceptance }: Props) {
  const [open, setOpen] = useState(false);
  // Someone accepted it with other details (another tab, another person): when, never who.
  const [acceptedBefore, setAcceptedBefore] = useState<string | null>(null);
  const { state } = acceptance;
  if (acceptedBefore) return <AcceptedBefore at={acceptedBefore} businessName={businessName} />;
  if (state?.acceptance) return <Accepted acceptance={state.acceptance} businessName={businessName} />;
  if (state?.refusal) return null; // expired (the receipt says so) or not priced
  if (acceptance.failed) {
    return (
      <p className="warning accept-unavailable">
        We couldn&apos;t load the form to accept this quote. <button type="button" onClick={() => void acceptance.reload()}>Try again</button>
      </p>
    );
  }
  if (!state?.form) return null;
  if (!open) {
    return (
      <div className="accept-cta">
        <button type="button" className="primary accept-open" onClick={() => setOpen(true)}>
          Accept this quote
        </button>
        <p className="accept-cta-note">Leave your details and {businessName} will get in touch to arrange the work.</p>
      </div>
    );
  }
  return (
    <AcceptForm
      businessId={businessId}
      quoteIntentId={quoteIntentId}
      form={state.form}
      onCancel={() => setOpen(false)}
      onAccepted={(accepted) => acceptance.set({ acceptance: accepted, form: null, refusal: null })}
      onExpired={() => acceptance.set({ acceptance: null, form: null, refusal: 'expired' })}
      onAcceptedBefore={setAcceptedBefore}
      refreshForm={acceptance.reload}
    />
  );
}

/** Where the form was: what became of the acceptance, its heading taking focus so that it is read out. */
function AcceptanceOutcome({ id, heading, children }: { id: string; heading: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section className="accept-done" aria-labelledby={id} role="status">
      <h3 id={id} ref={ref} tabIndex={-1}>
        {heading}
      </h3>
      {children}
    </section>
  );
}

function AcceptedBefore({ at, businessName }: { at: string; businessName: string }) {
  return (
    <AcceptanceOutcome id="accept-before-heading" heading="This quote was already accepted">
      <p>
        It was accepted on <LocalTime iso={at} style={{ dateStyle: 'long', timeStyle: 'short' }} />, with other details than the ones you just gave, so
        yours were not sent. If that was you and your details have changed, or it was not you, please contact {businessName}.
      </p>
    </AcceptanceOutcome>
  );
}

function Accepted({ acceptance, businessName }: { acceptance: PublicAcceptance; businessName: string }) {
  return (
    <AcceptanceOutcome
      id="accept-done-heading"
      heading={
        <>
          <span aria-hidden="true">✓ </span>You accepted this quote
        </>
      }
    >
      <p>
        Accepted on <LocalTime iso={acceptance.acceptedAt} style={{ dateStyle: 'long', timeStyle: 'short' }} />. {businessName} has your details
        and will contact you
        {acceptance.preferredDate ? <> about {formatDay(acceptance.preferredDate)}</> : null}.
      </p>
      <p className="accept-done-note">Keep this page&apos;s link: it brings you back to this quote and its confirmation.</p>
    </AcceptanceOutcome>
  );
}

function AcceptForm({
  businessId,
  quoteIntentId,
  form,
  onCancel,
  onAccepted,
  onExpired,
  onAcceptedBefore,
  refreshForm,
}: {
  businessId: string;
  quoteIntentId: string;
  form: NonNullable<AcceptanceState['form']>;
  onCancel(): void;
  onAccepted(acceptance: PublicAcceptance): void;
  onExpired(): void;
  /** Accepted before with other details: when. */
  onAcceptedBefore(acceptedAt: string): void;
  refreshForm(): Promise<AcceptanceState | null>;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (change: Partial<Fields>) => {
    setFields((current) => ({ ...current, ...change }));
    setErrors((current) => {
      const rest = { ...current };
      for (const key of Object.keys(change)) delete rest[key];
      if ('email' in change || 'phone' in change) delete rest.email;
      return rest;
    });
  };

  const focusField = (name: string) => document.getElementById(`${id}-${name}`)?.focus();

  function check(): Record<string, string> {
    const found: Record<string, string> = {};
    if (!fields.name.trim()) found.name = 'Tell us your name.';
    if (!fields.email.trim() && !fields.phone.trim()) found.email = 'Give an email address or a phone number, so that they can reach you.';
    else if (fields.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.trim())) found.email = 'That email address doesn’t look right.';
    if (fields.phone.trim() && !/^\+?[0-9 ().-]{6,30}$/.test(fields.phone.trim())) found.phone = 'Use digits, spaces and + ( ) - only.';
    // A date box takes a typed day outside its range: said here, in the same words the page uses for the service's refusal.
    if (fields.preferredDate && (fields.preferredDate < localToday() || fields.preferredDate > lastDay())) found.preferredDate = FIELD_SENTENCES.preferredDate;
    if (!fields.consent) found.consent = 'Tick the box to agree to be contacted.';
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const found = check();
    setErrors(found);
    setMessage(null);
    if (Object.keys(found).length > 0) return focusField(Object.keys(found)[0]);
    setSending(true);
    try {
      await send(form.token, true);
    } finally {
      setSending(false);
    }
  }

  /** One try; a form sent quicker than the service allows (autofill is quick) is sent again once it may be. */
  async function send(token: string, mayWait: boolean): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`/v1/public_quotes/${quoteIntentId}/acceptance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          businessId,
          contact: { name: fields.name.trim(), ...(fields.email.trim() ? { email: fields.email.trim() } : {}), ...(fields.phone.trim() ? { phone: fields.phone.trim() } : {}) },
          ...(fields.note.trim() ? { note: fields.note.trim() } : {}),
          ...(fields.preferredDate ? { preferredDate: fields.preferredDate } : {}),
          consent: true,
          formToken: token,
          ...(fields.website ? { website: fields.website } : {}),
        }),
      });
    } catch {
      return setMessage("We couldn't reach the service. Check your connection and try again.");
    }
    const body = (await response.json().catch(() => null)) as
      | { data: AnswerOf<typeof acceptQuoteContract> }
      | { error: { code: string; message: string; details?: { fields?: Record<string, string[]>; formToken?: string; acceptedAt?: string } } }
      | null;
    if (response.ok && body && 'data' in body) return onAccepted(body.data.acceptance);
    const error = body && 'error' in body ? body.error : null;
    if (error?.code === 'quote_expired') return onExpired();
    if (error?.code === 'quote_already_accepted' && error.details?.acceptedAt) return onAcceptedBefore(error.details.acceptedAt);
    if (error?.code === 'rate_limited') return setMessage('Lots of people are accepting quotes right now. Please try again in a minute.');
    if (error?.details?.formToken === 'too_fast' && mayWait) {
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      return send(token, false);
    }
    const fieldErrors = error?.details?.fields ?? {};
    if (fieldErrors.formToken) {
      // The form was open too long: a fresh one, and the same details, sent again by the person.
      await refreshForm();
      return setMessage(fieldErrors.formToken[0]);
    }
    const mapped: Record<string, string> = {};
    for (const [path, messages] of Object.entries(fieldErrors)) {
      const name = path.replace(/^contact\./, '');
      if (FIELD_NAMES.includes(name)) mapped[name] = fieldSentence(name, messages[0]);
    }
    if (Object.keys(mapped).length > 0) {
      setErrors(mapped);
      return focusField(Object.keys(mapped)[0]);
    }
    setMessage(refusalSentence(error, response.status, response.headers.get('x-request-id')));
  }

  const invalid = (name: keyof Fields | 'email') => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${name}-error` } : {});
  const errorOf = (name: string) =>
    errors[name] ? (
      <p className="field-error" id={`${id}-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;

  return (
    <form className="accept-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} aria-busy={sending}>
      <h3 id={`${id}-title`}>Accept this quote</h3>
      <p className="accept-intro">We&apos;ll send your details to the business with this price, so that they can arrange the work with you.</p>
      <div className="accept-field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input ref={first} id={`${id}-name`} autoComplete="name" value={fields.name} maxLength={120} onChange={(e) => set({ name: e.target.value })} {...invalid('name')} />
        {errorOf('name')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-email`}>
          Email <span className="optional">(or a phone number)</span>
        </label>
        <input
          id={`${id}-email`}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={fields.email}
          maxLength={254}
          onChange={(e) => set({ email: e.target.value })}
          {...invalid('email')}
        />
        {errorOf('email')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-phone`}>
          Phone <span className="optional">(or an email address)</span>
        </label>
        <input id={`${id}-phone`} type="tel" inputMode="tel" autoComplete="tel" value={fields.phone} maxLength={30} onChange={(e) => set({ phone: e.target.value })} {...invalid('phone')} />
        {errorOf('phone')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-preferredDate`}>
          When would suit you? <span className="optional">(optional)</span>
        </label>
        <input
          id={`${id}-preferredDate`}
          type="date"
          min={localToday()}
          max={lastDay()}
          value={fields.preferredDate}
          onChange={(e) => set({ preferredDate: e.target.value })}
          {...invalid('preferredDate')}
        />
        {errorOf('preferredDate')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-note`}>
          Anything they should know? <span className="optional">(optional)</span>
        </label>
        <textarea id={`${id}-note`} rows={3} maxLength={1000} value={fields.note} onChange={(e) => set({ note: e.target.value })} {...invalid('note')} />
        {errorOf('note')}
      </div>
      {/* People never see this field; form-filling robots fill it in. */}
      <div className="accept-trap" aria-hidden="true">
        <label htmlFor={`${id}-website`}>Website</label>
        <input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={(e) => set({ website: e.target.value })} />
      </div>
      <div className="accept-field accept-consent">
        <label>
          <input id={`${id}-consent`} type="checkbox" checked={fields.consent} onChange={(e) => set({ consent: e.target.checked })} {...invalid('consent')} />
          <span>{form.consentText}</span>
        </label>
        {errorOf('consent')}
      </div>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <div className="accept-actions">
        <button type="submit" className="primary" disabled={sending}>
          {sending && <span className="button-spinner" aria-hidden="true" />}
          {sending ? 'Sending…' : 'Accept quote'}
        </button>
        <button type="button" onClick={onCancel} disabled={sending}>
          Not now
        </button>
      </div>
    </form>
  );
}
