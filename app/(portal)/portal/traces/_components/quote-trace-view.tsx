'use client';

import { useMemo } from 'react';
import { inPeopleWords } from '@/app/_components/people-derivation';
import { PriceWaterfall } from '@/app/_components/receipt-view';
import type { QuoteComputation } from '@/lib/pricing';
import { useBookVersion } from '../../books/_components/book-queries';
import { useWorkspaces } from '../../../_components/queries';
import { CausedEvents } from './caused-events';
import { CompareWith } from './compare-with';
import { ReceiptOutcome } from './receipt-outcome';
import { ReceiptProof } from './receipt-proof';
import { CreatingRequest, ExperimentArm, PinnedBookVersion, QuoteInputs } from './trace-facts';
import { TraceHeader } from './trace-header';
import type { QuoteTrace } from './use-quote-trace';

/** One quote, read top to bottom: what was quoted, how, from which book, for whom, and what followed. */
export function QuoteTraceView({ trace }: { trace: QuoteTrace }) {
  const { quoteIntent, quoteReceipt } = trace;
  // The pinned version gives the labels people read; it is fetched once and shared below.
  const version = useBookVersion(trace.book.id, trace.bookVersion?.id);
  const workspaces = useWorkspaces();
  const canSearchLog = workspaces.data?.workspaces.some((w) => w.id === quoteIntent.workspaceId && w.permissions.includes('logs:read')) ?? false;
  return (
    <>
      <TraceHeader trace={trace} />
      <CompareWith trace={trace} />
      <div className="grid two">
        <section className="card" aria-labelledby="receipt-heading">
          <h2 id="receipt-heading">Receipt</h2>
          <ReceiptOutcome trace={trace} />
        </section>
        <section className="card" aria-labelledby="inputs-heading">
          <h2 id="inputs-heading">Inputs</h2>
          <QuoteInputs inputs={quoteIntent.inputs} artifact={version.data?.artifact} />
        </section>
      </div>

      <section className="card" aria-labelledby="proof-heading" style={{ marginTop: '1.5rem' }}>
        <h2 id="proof-heading">Proof</h2>
        <ReceiptProof trace={trace} />
      </section>

      {quoteReceipt.computation && (
        <section aria-labelledby="derivation-heading">
          <h2 id="derivation-heading">How the price was derived</h2>
          <p className="muted">Every rule of the book in the order the engine evaluates them; a skipped rule says why it did not apply.</p>
          <Derivation trace={trace} computation={quoteReceipt.computation} />
        </section>
      )}

      <div className="grid two" style={{ marginTop: '1.5rem' }}>
        <section className="card" aria-labelledby="book-heading">
          <h2 id="book-heading">Pinned book version</h2>
          <ExperimentArm experiment={trace.experiment} />
          <PinnedBookVersion book={trace.book} version={trace.bookVersion} />
        </section>
        <section className="card" aria-labelledby="request-heading">
          <h2 id="request-heading">Creating request</h2>
          <CreatingRequest request={trace.request} requestId={quoteIntent.requestCorrelationId} canSearchLog={canSearchLog} />
        </section>
      </div>

      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Events and webhook deliveries</h2>
        <CausedEvents events={trace.events} />
      </section>
    </>
  );
}

/**
 * The receipt's steps, worded with the pinned version's labels once it has loaded (and the stored
 * wording until then, or if the version cannot be read).
 */
function Derivation({ trace, computation }: { trace: QuoteTrace; computation: QuoteComputation }) {
  const version = useBookVersion(trace.book.id, trace.bookVersion?.id);
  const inputs = trace.quoteIntent.inputs;
  const people = useMemo(() => (version.data ? inPeopleWords(version.data.artifact, inputs, computation) : null), [version.data, inputs, computation]);
  return <PriceWaterfall computation={people?.computation ?? computation} ruleLabels={people?.ruleLabels} />;
}
