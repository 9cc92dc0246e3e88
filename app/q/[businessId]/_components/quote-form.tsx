'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { factorPath, factorsToSend, missingAnswers, missingSentence, NO_ANSWERS, offeringPath, type Answers, type Offering } from './answers';
import { FactorSelect } from './factor-select';
import { OfferingPicker } from './offering-picker';
import type { AcceptanceState } from './acceptance-request';
import { QuoteReceipt, type NextStep } from './quote-receipt';
import { newIdempotencyKey, submitPublicQuote, type QuoteResult } from './submit-public-quote';
import { useSecondsUntil } from './use-seconds-until';

/**
 * A quote the page was opened with (`?quote=<id>`), its offering as the version that priced it
 * asked it, and whether the customer accepted it (null when it was not priced).
 */
export type LinkedQuote = { result: QuoteResult; offering: Offering | undefined; acceptance: AcceptanceState | null };

type Props = {
  businessId: string;
  businessName: string;
  offerings: Offering[];
  /** What the business offers after a price (branding), e.g. a booking page. */
  nextStep: NextStep | null;
  linkedQuote: LinkedQuote | null;
};

type Status =
  /** `refilled`: the answers of an expired price, put back for a new one. */
  | { kind: 'editing'; refilled?: boolean }
  | { kind: 'submitting' }
  | { kind: 'quoted'; result: QuoteResult; offering: Offering | undefined; acceptance: AcceptanceState | null }
  | { kind: 'unpriced'; reference: string }
  | { kind: 'rate_limited'; retryAt: number }
  | { kind: 'error'; message: string };

/**
 * The hosted quote form: offerings, their factors, and what came of the last submission.
 * No price is known here until the service answers.
 */
export function QuoteForm({ businessId, businessName, offerings, nextStep, linkedQuote }: Props) {
  // A link to a priced quote opens on its receipt; to an unpriced one, on its answers.
  const [answers, setAnswers] = useState<Answers>(() => (linkedQuote ? linkedQuote.result.quoteIntent.inputs : NO_ANSWERS));
  const [status, setStatus] = useState<Status>(() => initialStatus(linkedQuote));
  const [missing, setMissing] = useState<ReadonlySet<string>>(() => new Set(linkedQuote?.result.quoteReceipt.missingInputs ?? []));
  const [focusRequest, setFocusRequest] = useState(0);
  // One key per distinct attempt: a double click or a retry after a network error replays the
  // same quote; any change to the answers starts a new attempt.
  const attemptKey = useRef<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const retrySeconds = useSecondsUntil(status.kind === 'rate_limited' ? status.retryAt : null);

  const offering = offerings.find((o) => o.id === answers.offeringId);

  useEffect(() => {
    if (focusRequest > 0) form.current?.querySelector<HTMLElement>('[data-missing]')?.focus();
  }, [focusRequest]);
  const refilled = status.kind === 'editing' && status.refilled === true;
  useEffect(() => {
    if (refilled) form.current?.querySelector<HTMLElement>('[data-refilled]')?.focus();
  }, [refilled]);

  function changeAnswers(next: Answers, answeredPath: string) {
    attemptKey.current = null;
    setAnswers(next);
    setMissing((current) => withoutPath(current, answeredPath));
    if (status.kind === 'error' || status.kind === 'unpriced') setStatus({ kind: 'editing' });
  }

  function answerFactor(factorId: string, answer: string | null | undefined) {
    const factors = { ...answers.factors };
    if (answer === undefined) delete factors[factorId];
    else factors[factorId] = answer;
    changeAnswers({ ...answers, factors }, factorPath(factorId));
  }

  function startAgain() {
    attemptKey.current = null;
    setAnswers(NO_ANSWERS);
    setMissing(new Set());
    setStatus({ kind: 'editing' });
    window.history.replaceState(null, '', window.location.pathname);
  }

  /** An expired price's answers, back in the form: checked and sent again, they make a new quote. */
  function newPriceFor(result: QuoteResult) {
    attemptKey.current = null;
    setAnswers(result.quoteIntent.inputs);
    setMissing(new Set());
    setStatus({ kind: 'editing', refilled: true });
    window.history.replaceState(null, '', window.location.pathname);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (status.kind === 'submitting' || retrySeconds > 0) return;
    // Asked here first: a quote is stored only once the customer has answered what it needs.
    const unanswered = missingAnswers(offering, answers);
    if (unanswered.length > 0) return askFor(unanswered);
    attemptKey.current ??= newIdempotencyKey();
    setStatus({ kind: 'submitting' });
    const outcome = await submitPublicQuote({
      businessId,
      offeringId: answers.offeringId,
      factors: factorsToSend(offering, answers),
      idempotencyKey: attemptKey.current,
    });
    switch (outcome.kind) {
      case 'quoted':
        return showReceipt(outcome.result);
      case 'rate_limited':
        return setStatus({ kind: 'rate_limited', retryAt: Date.now() + outcome.retryAfterSeconds * 1000 });
      case 'conflict':
        // Only reachable if a key were reused for other answers; a fresh attempt is the cure.
        attemptKey.current = null;
        return setStatus({ kind: 'error', message: 'Your answers changed while we were working. Please submit again.' });
      case 'error':
        return setStatus({ kind: 'error', message: outcome.message });
    }
  }

  function showReceipt(result: QuoteResult) {
    const receipt = result.quoteReceipt;
    if (receipt.outcome === 'succeeded') {
      // The address becomes the receipt's: a reload or a bookmark comes back to this price.
      window.history.replaceState(null, '', `${window.location.pathname}?quote=${result.quoteIntent.id}`);
      return setStatus({ kind: 'quoted', result, offering, acceptance: null });
    }
    if (receipt.outcome === 'failed') return setStatus({ kind: 'unpriced', reference: result.quoteIntent.id });
    // The book changed since the page was loaded: the service names what it needs now.
    askFor(receipt.missingInputs);
  }

  /** Marks what is missing, says so above the button and moves focus to the first of it. */
  function askFor(paths: readonly string[]) {
    setMissing(new Set(paths));
    setStatus({ kind: 'editing' });
    setFocusRequest((n) => n + 1);
  }

  if (status.kind === 'quoted') {
    return (
      <QuoteReceipt
        businessId={businessId}
        businessName={businessName}
        result={status.result}
        acceptance={status.acceptance}
        offering={status.offering}
        nextStep={nextStep}
        onStartAgain={startAgain}
        onNewPrice={() => newPriceFor(status.result)}
      />
    );
  }

  const submitting = status.kind === 'submitting';
  return (
    <form ref={form} className="quote-form" onSubmit={submit} noValidate aria-busy={submitting}>
      {refilled && (
        <p className="notice quote-refilled" role="status" tabIndex={-1} data-refilled="">
          Your answers from before are filled in. Check them, then press “Get my price” for today’s price.
        </p>
      )}
      <OfferingPicker
        offerings={offerings}
        selectedId={answers.offeringId}
        missing={missing.has(offeringPath)}
        onSelect={(offeringId) => changeAnswers({ ...answers, offeringId }, offeringPath)}
      />
      {offering && offering.factors.length > 0 && (
        <fieldset className="factor-fields">
          <legend>About the job</legend>
          {offering.factors.map((factor) => (
            <FactorSelect
              key={factor.id}
              factor={factor}
              answer={answers.factors[factor.id]}
              missing={missing.has(factorPath(factor.id))}
              onAnswer={(answer) => answerFactor(factor.id, answer)}
            />
          ))}
        </fieldset>
      )}
      <SubmissionMessage status={status} missingText={missingSentence(missing, offering)} retrySeconds={retrySeconds} businessName={businessName} />
      <button type="submit" className="primary quote-submit" disabled={submitting || retrySeconds > 0}>
        {submitting && <span className="button-spinner" aria-hidden="true" />}
        {submitting ? 'Calculating your price…' : retrySeconds > 0 ? `Try again in ${retrySeconds}s` : 'Get my price'}
      </button>
    </form>
  );
}

function SubmissionMessage({
  status,
  missingText,
  retrySeconds,
  businessName,
}: {
  status: Status;
  missingText: string | null;
  retrySeconds: number;
  businessName: string;
}) {
  if (status.kind === 'submitting') {
    // The button says so on screen; this tells screen readers.
    return (
      <p className="sr-only" role="status">
        Calculating your price…
      </p>
    );
  }
  if (status.kind === 'rate_limited' && retrySeconds > 0) {
    return (
      <p className="warning" role="status">
        Lots of people are asking for quotes right now — please try again in {retrySeconds}{' '}
        {retrySeconds === 1 ? 'second' : 'seconds'}.
      </p>
    );
  }
  if (status.kind === 'unpriced') {
    return (
      <p className="error" role="alert">
        We couldn&apos;t price this combination online. Try different answers, or contact {businessName} for a
        price (quote reference <code>{status.reference}</code>).
      </p>
    );
  }
  if (status.kind === 'error') {
    return (
      <p className="error" role="alert">
        {status.message}
      </p>
    );
  }
  if (missingText) {
    return (
      <p className="error" role="alert">
        {missingText}
      </p>
    );
  }
  return null;
}

function initialStatus(linked: LinkedQuote | null): Status {
  if (!linked) return { kind: 'editing' };
  const { result } = linked;
  if (result.quoteReceipt.outcome === 'succeeded') return { kind: 'quoted', result, offering: linked.offering, acceptance: linked.acceptance };
  if (result.quoteReceipt.outcome === 'failed') return { kind: 'unpriced', reference: result.quoteIntent.id };
  return { kind: 'editing' };
}

function withoutPath(paths: ReadonlySet<string>, path: string): ReadonlySet<string> {
  if (!paths.has(path)) return paths;
  const rest = new Set(paths);
  rest.delete(path);
  return rest;
}
