'use client';

import Link from 'next/link';
import { TraceLookupForm } from './_components/trace-lookup-form';

export default function QuoteTracesPage() {
  return (
    <>
      <h1>Quote traces</h1>
      <p className="muted">
        Everything behind one quote: its receipt, how the price was derived, the book version it used, the request that created it
        and the events it caused.
      </p>
      <TraceLookupForm />
      <p className="muted">
        Looking for a quote? Find its request in the <Link href="/portal/request-logs">request log</Link> and follow “Trace”.
      </p>
    </>
  );
}
