'use client';

import { IntentLink } from '../../../_components/intent-link';
import { TraceLookupForm } from './_components/trace-lookup-form';
import { usePageAccess } from '../../_components/portal-access';

export default function QuoteTracesPage() {
  const access = usePageAccess();
  return (
    <>
      <h1>Quote traces</h1>
      <p className="muted">
        Everything behind one quote: its receipt, how the price was derived, the book version it used, the request that created it
        and the events it caused.
      </p>
      <TraceLookupForm />
      {access?.quotes && (
        <p className="muted">
          Looking for a quote of your business? <IntentLink href="/portal/quotes">Quotes</IntentLink> lists them newest first, each with its trace.
        </p>
      )}
      {access?.requestLog && (
        <p className="muted">
          Looking for an API call? Find its request in the <IntentLink href="/portal/request-logs">request log</IntentLink> and follow “Trace”.
        </p>
      )}
    </>
  );
}
