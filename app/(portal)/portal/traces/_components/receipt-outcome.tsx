'use client';

import { ReceiptSummary } from '@/app/_components/receipt-view';
import { formatTime } from '../../../_components/ui';
import { useBookVersion } from '../../books/_components/book-queries';
import type { QuoteTrace } from './use-quote-trace';

/** What the customer was told: the priced receipt, or in plain words why there is no price. */
export function ReceiptOutcome({ trace }: { trace: QuoteTrace }) {
  const { quoteReceipt: receipt, quoteIntent } = trace;
  const version = useBookVersion(trace.book.id, receipt.outcome === 'requires_input' ? trace.bookVersion?.id : undefined);
  const factors = (version.data?.artifact as { factors?: { id: string; label: string }[] } | undefined)?.factors;
  if (receipt.computation) return <ReceiptSummary computation={receipt.computation} />;
  if (receipt.outcome === 'requires_input') {
    return (
      <div className="warning">
        <p style={{ marginTop: 0 }}>
          Not priced yet: the book needs {receipt.missingInputs.length === 1 ? 'an answer' : 'answers'} to{' '}
          {receipt.missingInputs.map((input, i) => (
            <span key={input}>
              {i > 0 && ', '}
              <strong>{missingInputName(input, factors)}</strong>
            </span>
          ))}
          .
        </p>
        {quoteIntent.expiresAt && <p style={{ marginBottom: 0 }}>The quote waits for them until {formatTime(quoteIntent.expiresAt)}.</p>}
      </div>
    );
  }
  return (
    <div className="error">
      <p style={{ marginTop: 0 }}>This quote could not be priced: {receipt.failure?.message ?? 'the service gave no reason.'}</p>
      {receipt.failure && (
        <p style={{ marginBottom: 0 }}>
          Code <span className="mono">{receipt.failure.code}</span>
        </p>
      )}
    </div>
  );
}

/** Missing inputs are request paths (`factors.storeys`, `offeringId`); people know the question (the pinned version's label). */
function missingInputName(input: string, factors: readonly { id: string; label: string }[] | undefined): string {
  if (input === 'offeringId') return 'which service is wanted';
  if (!input.startsWith('factors.')) return input;
  const factorId = input.slice('factors.'.length);
  const label = factors?.find((f) => f.id === factorId)?.label;
  return label ? `${label} (${factorId})` : factorId;
}
