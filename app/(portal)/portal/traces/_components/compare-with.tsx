'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import type { listBusinessQuotesContract } from '@/app/v1/businesses/contract';
import type { listQuoteIntentsContract } from '@/app/v1/quote-intents/contract';
import { apiFetch } from '../../../_components/api';
import { comparisonHref } from '../../../_components/compare-picker';
import { formatTime } from '../../../_components/ui';
import { offeringName } from '../../quotes/_components/offering-name';
import { QUOTE_STATUS } from './trace-header';
import type { QuoteTrace } from './use-quote-trace';

/**
 * "Compare with…": this quote (A) against another of its business (B), picked from the business's
 * recent quotes when the person may list them, or by id.
 */
export function CompareWith({ trace }: { trace: QuoteTrace }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (trace.businessId === null) return null;
  return (
    <div style={{ marginBottom: '1rem' }}>
      <button type="button" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen(!open)}>
        Compare with…
      </button>
      {open && <ComparePanel id={`${id}-panel`} trace={trace} businessId={trace.businessId} />}
    </div>
  );
}

function ComparePanel({ id, trace, businessId }: { id: string; trace: QuoteTrace; businessId: string }) {
  const router = useRouter();
  const self = trace.quoteIntent.id;
  // The business's recent quotes in the same environment; a person who may trace but not list them types an id.
  const recent = useQuery({
    queryKey: ['businesses', businessId, 'quotes', trace.environment, 'recent'],
    queryFn: () =>
      // Live on the member route (the business's Live connection, spec 9); Test on the workspace route.
      trace.environment === 'live'
        ? apiFetch<typeof listBusinessQuotesContract>(`/v1/businesses/${businessId}/quotes?limit=20`)
        : apiFetch<typeof listQuoteIntentsContract>(`/v1/quote-intents?${new URLSearchParams({ businessId, environment: 'test', limit: '20' })}`),
    retry: false,
  });
  const others = recent.data?.quotes.filter((q) => q.id !== self) ?? [];
  const [picked, setPicked] = useState('');
  const [typed, setTyped] = useState('');
  const other = typed.trim() || picked;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (other) router.push(comparisonHref(self, other));
  }

  return (
    <form id={id} className="card" aria-label="Compare this quote with another" onSubmit={submit} style={{ marginTop: '0.5rem' }}>
      {others.length > 0 && (
        <div className="field">
          <label htmlFor={`${id}-recent`}>A recent quote of this business</label>
          <select id={`${id}-recent`} value={picked} onChange={(e) => setPicked(e.target.value)} style={{ width: '100%' }}>
            <option value="">Choose a quote…</option>
            {others.map((q) => (
              <option key={q.id} value={q.id}>
                {formatTime(q.createdAt)} · {offeringName(q)} ·{' '}
                {q.totalMinor !== null && q.currency ? formatMoney(q.totalMinor, q.currency) : QUOTE_STATUS[q.status].label}
                {q.bookVersionNumber !== null ? ` · v${q.bookVersionNumber}` : ''}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-id`}>{others.length > 0 ? 'Or a quote id' : 'Quote id'}</label>
        <input id={`${id}-id`} className="mono" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" style={{ width: '100%' }} />
        <span className="hint">This quote is A; the one you pick is B. Every difference reads B minus A.</span>
      </div>
      <button type="submit" className="primary" disabled={!other}>
        Compare
      </button>
    </form>
  );
}
