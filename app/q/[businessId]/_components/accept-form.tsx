'use client';

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import {
  acceptanceBody,
  checkContact,
  lastDay,
  localToday,
  NO_CONTACT,
  readAcceptanceAnswer,
  type AcceptanceState,
  type ContactFields,
  type PublicAcceptance,
} from './acceptance-request';

/**
 * The form that accepts a quote: the customer's details, checked before they go, sent once (and
 * once more when sent quicker than the service allows), and the answer in the page's words.
 */
export function AcceptForm({ businessId, quoteIntentId, form, onCancel, onAccepted, onExpired, onAcceptedBefore, refreshForm }: {
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
  const [fields, setFields] = useState<ContactFields>(NO_CONTACT);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (change: Partial<ContactFields>) => {
    setFields((current) => ({ ...current, ...change }));
    setErrors((current) => {
      const rest = { ...current };
      for (const key of Object.keys(change)) delete rest[key];
      if ('email' in change || 'phone' in change) delete rest.email;
      return rest;
    });
  };
  const focusField = (name: string) => document.getElementById(`${id}-${name}`)?.focus();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const found = checkContact(fields);
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

  async function send(token: string, mayWait: boolean): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`/v1/public_quotes/${quoteIntentId}/acceptance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(acceptanceBody(businessId, fields, token)),
      });
    } catch {
      return setMessage("We couldn't reach the service. Check your connection and try again.");
    }
    const body = await response.json().catch(() => null);
    const answer = readAcceptanceAnswer({ status: response.status, body, requestId: response.headers.get('x-request-id'), mayWait });
    switch (answer.kind) {
      case 'accepted':
        return onAccepted(answer.acceptance);
      case 'expired':
        return onExpired();
      case 'accepted_before':
        return onAcceptedBefore(answer.acceptedAt);
      case 'too_fast':
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        return send(token, false);
      case 'form_expired':
        await refreshForm();
        return setMessage(answer.message);
      case 'fields':
        setErrors(answer.errors);
        return focusField(Object.keys(answer.errors)[0]);
      case 'refused':
        return setMessage(answer.message);
    }
  }

  return (
    <form className="accept-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} aria-busy={sending}>
      <h3 id={`${id}-title`}>Accept this quote</h3>
      <p className="accept-intro">We&apos;ll send your details to the business with this price, so that they can arrange the work with you.</p>
      <ContactInputs id={id} fields={fields} errors={errors} onChange={set} firstRef={first} consentText={form.consentText} />
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

/** The customer's details, each box with its label and, when it was refused, why (read out with it). */
function ContactInputs({ id, fields, errors, onChange, firstRef, consentText }: {
  id: string;
  fields: ContactFields;
  errors: Record<string, string>;
  onChange(change: Partial<ContactFields>): void;
  firstRef: RefObject<HTMLInputElement | null>;
  consentText: string;
}) {
  const invalid = (name: keyof ContactFields) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${name}-error` } : {});
  const errorOf = (name: keyof ContactFields): ReactNode =>
    errors[name] ? (
      <p className="field-error" id={`${id}-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;
  return (
    <>
      <div className="accept-field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input ref={firstRef} id={`${id}-name`} autoComplete="name" value={fields.name} maxLength={120} onChange={(e) => onChange({ name: e.target.value })} {...invalid('name')} />
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
          onChange={(e) => onChange({ email: e.target.value })}
          {...invalid('email')}
        />
        {errorOf('email')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-phone`}>
          Phone <span className="optional">(or an email address)</span>
        </label>
        <input id={`${id}-phone`} type="tel" inputMode="tel" autoComplete="tel" value={fields.phone} maxLength={30} onChange={(e) => onChange({ phone: e.target.value })} {...invalid('phone')} />
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
          onChange={(e) => onChange({ preferredDate: e.target.value })}
          {...invalid('preferredDate')}
        />
        {errorOf('preferredDate')}
      </div>
      <div className="accept-field">
        <label htmlFor={`${id}-note`}>
          Anything they should know? <span className="optional">(optional)</span>
        </label>
        <textarea id={`${id}-note`} rows={3} maxLength={1000} value={fields.note} onChange={(e) => onChange({ note: e.target.value })} {...invalid('note')} />
        {errorOf('note')}
      </div>
      {/* People never see this field; form-filling robots fill it in. */}
      <div className="accept-trap" aria-hidden="true">
        <label htmlFor={`${id}-website`}>Website</label>
        <input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={(e) => onChange({ website: e.target.value })} />
      </div>
      <div className="accept-field accept-consent">
        <label>
          <input id={`${id}-consent`} type="checkbox" checked={fields.consent} onChange={(e) => onChange({ consent: e.target.checked })} {...invalid('consent')} />
          <span>{consentText}</span>
        </label>
        {errorOf('consent')}
      </div>
    </>
  );
}
