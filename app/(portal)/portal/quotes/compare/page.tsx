'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { isNotFound } from '../../../_components/api';
import { comparisonHref } from '../../../_components/compare-picker';
import { Empty, ErrorMessage, Loading } from '../../../_components/ui';
import { QuoteComparisonView } from '../_components/quote-comparison-view';
import { useQuoteComparison } from '../_components/use-quote-comparison';

/** /portal/quotes/compare?a=<quote id>&b=<quote id>: why B's price differs from A's. */
export default function CompareQuotesPage() {
  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/quotes">← Quotes</IntentLink>
      </p>
      <h1>Compare two quotes</h1>
      <p className="muted">
        Why do these two prices differ? The answers that differ, the book versions they were priced with, and step by step what priced
        differently, adding up to the difference of the totals.
      </p>
      <Suspense fallback={<Loading what="the comparison" />}>
        <PickedQuotes />
      </Suspense>
    </>
  );
}

function PickedQuotes() {
  const params = useSearchParams();
  const a = params.get('a')?.trim();
  const b = params.get('b')?.trim();
  if (!a || !b) {
    return (
      <Empty>
        Pick two quotes to compare: tick “Compare” on two rows of <IntentLink href="/portal/quotes">Quotes</IntentLink> or of the{' '}
        <IntentLink href="/portal/request-logs">request log</IntentLink>, or use “Compare with…” on a quote’s trace.
      </Empty>
    );
  }
  return <Comparison a={a} b={b} />;
}

function Comparison({ a, b }: { a: string; b: string }) {
  const comparison = useQuoteComparison(a, b);
  if (comparison.isPending) return <Loading what="the comparison" />;
  if (comparison.isError) {
    return isNotFound(comparison.error) ? (
      <p className="error" role="alert">
        One of these quotes does not exist, or you may not see it. Check that both ids were copied whole: <code>{a}</code> and <code>{b}</code>.
      </p>
    ) : (
      <ErrorMessage error={comparison.error} />
    );
  }
  return (
    <>
      <p>
        <IntentLink href={comparisonHref(b, a)}>Swap A and B</IntentLink>
      </p>
      <QuoteComparisonView comparison={comparison.data} />
    </>
  );
}
