'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { useParams } from 'next/navigation';
import { isNotFound } from '../../../_components/api';
import { ErrorMessage, Loading } from '../../../_components/ui';
import { QuoteTraceView } from '../_components/quote-trace-view';
import { TraceLookupForm } from '../_components/trace-lookup-form';
import { useQuoteTrace } from '../_components/use-quote-trace';

export default function QuoteTracePage() {
  const id = decodedSegment(useParams<{ id: string }>().id);
  const trace = useQuoteTrace(id);

  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/traces">← Quote traces</IntentLink>
      </p>
      {trace.isPending ? (
        <Loading what="the quote trace" />
      ) : trace.isError ? (
        <>
          <h1>Quote trace</h1>
          {isNotFound(trace.error) ? <TraceNotFound id={id} /> : <ErrorMessage error={trace.error} />}
        </>
      ) : (
        <QuoteTraceView trace={trace.data} />
      )}
    </>
  );
}

function TraceNotFound({ id }: { id: string }) {
  return (
    <>
      <div className="warning" role="alert" style={{ marginBottom: '1rem' }}>
        <p style={{ margin: 0 }}>
          No quote matches <span className="mono">{id}</span>. Check that the whole id was copied: a quote id or the request id (
          <code>x-request-id</code>) of the request that created the quote. Quotes of workspaces you are not a member of are not shown.
        </p>
      </div>
      <TraceLookupForm key={id} initialId={id} />
    </>
  );
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
