'use client';

import { EnvironmentBadge, formatTime } from '../../../_components/ui';
import type { QuoteTrace } from './use-quote-trace';

type QuoteStatus = QuoteTrace['quoteIntent']['status'];

/** How the portal names and colours a quote's status (traces and the quotes list). */
export const QUOTE_STATUS: Record<QuoteStatus, { label: string; tone: string }> = {
  created: { label: 'Created', tone: '' },
  processing: { label: 'Processing', tone: '' },
  succeeded: { label: 'Priced', tone: 'ok' },
  requires_input: { label: 'Needs more answers', tone: 'warn' },
  failed: { label: 'Failed', tone: 'danger' },
  expired: { label: 'Expired', tone: '' },
};

const SOURCE: Record<QuoteTrace['quoteIntent']['source'], string> = { api: 'the API', hosted: 'the hosted quote page' };

export function TraceHeader({ trace }: { trace: QuoteTrace }) {
  const { quoteIntent } = trace;
  const status = QUOTE_STATUS[quoteIntent.status];
  return (
    <header style={{ marginBottom: '1rem' }}>
      <h1 style={{ marginBottom: '0.4rem' }}>Quote trace</h1>
      <div className="row">
        <span className={`badge ${status.tone}`} data-testid="quote-status">
          {status.label}
        </span>
        <EnvironmentBadge environment={trace.environment} />
        <span>
          from {SOURCE[quoteIntent.source]}, {formatTime(quoteIntent.createdAt)}
        </span>
      </div>
      <div className="muted" style={{ marginTop: '0.25rem' }}>
        Quote <span className="mono">{quoteIntent.id}</span>
      </div>
      {quoteIntent.expiresAt && (
        <div className="muted" data-testid="quote-validity">
          {quoteIntent.status === 'expired' ? 'Expired' : quoteIntent.status === 'requires_input' ? 'Answerable until' : 'Valid until'}{' '}
          {formatTime(quoteIntent.expiresAt)}
        </div>
      )}
    </header>
  );
}
