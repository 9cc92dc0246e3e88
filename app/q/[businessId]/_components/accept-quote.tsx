'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { AcceptForm } from './accept-form';
import type { AcceptanceState, PublicAcceptance } from './acceptance-request';
import { LocalTime } from './local-time';

type Props = {
  businessId: string;
  businessName: string;
  quoteIntentId: string;
  acceptance: AcceptanceLoad;
};

/** A day (`YYYY-MM-DD`) as the customer reads it: it is a calendar day, not an instant. */
const formatDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'full', timeZone: 'UTC' });

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
