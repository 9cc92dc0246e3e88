'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { IntentLink } from '../../../_components/intent-link';
import { useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import type { AnswerOf } from '@/lib/http/contract';
import type { listBusinessQuotesContract } from '@/app/v1/businesses/contract';
import type { listQuoteIntentsContract } from '@/app/v1/quote-intents/contract';
import { apiFetch } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import { CompareBar, CompareCheckbox, useComparePicks } from '../../_components/compare-picker';
import { useWorkspaces, type Business } from '../../_components/queries';
import { Empty, EnvironmentBadge, ErrorMessage, formatTime, Loading } from '../../_components/ui';
import { QUOTE_STATUS } from '../traces/_components/trace-header';
import { offeringName, type BusinessQuote } from './_components/offering-name';

/** One page of the member route's Live quotes, or of the workspace route's (Test, or both). */
type Page = AnswerOf<typeof listBusinessQuotesContract> | AnswerOf<typeof listQuoteIntentsContract>;
const SOURCE = { hosted: 'Hosted page', api: 'API' } as const;

export default function QuotesPage() {
  return (
    <>
      <h1>Quotes</h1>
      <p className="muted">
        Every quote of the business — from your hosted quote page, your team and your integrations — newest first. Open one to see how its price was
        worked out.
      </p>
      <BusinessScope>{(business) => <BusinessQuotes business={business} />}</BusinessScope>
    </>
  );
}

function BusinessQuotes({ business }: { business: Business }) {
  const workspaces = useWorkspaces();
  const inWorkspace = workspaces.data?.workspaces.some((w) => w.id === business.workspaceId) ?? false;
  const [chosen, setEnvironment] = useState<'live' | 'test' | ''>('live');
  const environment = inWorkspace ? chosen : 'live';
  const [status, setStatus] = useState<BusinessQuote['status'] | ''>('');
  const quotes = useInfiniteQuery({
    queryKey: ['businesses', business.id, 'quotes', environment, status],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }): Promise<Page> => {
      const query = new URLSearchParams({ limit: '50' });
      if (status) query.set('status', status);
      if (pageParam) query.set('cursor', pageParam);
      if (environment === 'live') return apiFetch<typeof listBusinessQuotesContract>(`/v1/businesses/${business.id}/quotes?${query}`);
      // Test quotes are the workspace's to see (spec 9: member routes use the business's Live connection).
      query.set('businessId', business.id);
      if (environment) query.set('environment', environment);
      return apiFetch<typeof listQuoteIntentsContract>(`/v1/quote-intents?${query}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = quotes.data?.pages.flatMap((p) => p.quotes) ?? [];
  const picks = useComparePicks();

  return (
    <>
      <form className="row" style={{ alignItems: 'flex-end', marginBottom: '0.75rem' }} onSubmit={(e) => e.preventDefault()} aria-label="Filter quotes">
        {inWorkspace && (
          <div className="field">
            <label htmlFor="quotes-environment">Environment</label>
            <select id="quotes-environment" value={environment} onChange={(e) => setEnvironment(e.target.value as typeof environment)}>
              <option value="live">Live (customers)</option>
              <option value="test">Test</option>
              <option value="">Test and Live</option>
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="quotes-status">Result</label>
          <select id="quotes-status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">Any result</option>
            {(['succeeded', 'requires_input', 'failed', 'expired'] as const).map((s) => (
              <option key={s} value={s}>
                {QUOTE_STATUS[s].label}
              </option>
            ))}
          </select>
        </div>
      </form>
      {quotes.isPending ? (
        <Loading what="quotes" />
      ) : quotes.isError ? (
        <ErrorMessage error={quotes.error} />
      ) : rows.length === 0 ? (
        <Empty>
          No quotes {status ? `with this result ` : ''}
          {environment ? `in ${environment === 'live' ? 'Live' : 'Test'} ` : ''}yet.{' '}
          {environment === 'live' && (
            <>
              Customers quote on your <a href={`/q/${business.id}`}>hosted quote page</a>.
            </>
          )}
        </Empty>
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <CompareBar picks={picks} />
          <table className="cards" aria-label="Quotes">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Compare</span>
                </th>
                <th>When</th>
                <th>Offering</th>
                <th>Result</th>
                <th className="num">Price</th>
                <th>From</th>
                <th>Version</th>
                <th>Trace</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((q) => (
                <tr key={q.id}>
                  <td>
                    <CompareCheckbox quoteId={q.id} picks={picks} describedAs={`the ${offeringName(q)} quote of ${formatTime(q.createdAt)}`} />
                  </td>
                  <td data-label="When" style={{ whiteSpace: 'nowrap' }}>{formatTime(q.createdAt)}</td>
                  <td data-label="Offering">{q.offeringLabel ?? <span className="muted">{offeringName(q)}</span>}</td>
                  <td data-label="Result" style={{ whiteSpace: 'nowrap' }}>
                    <span className={`badge ${QUOTE_STATUS[q.status].tone}`}>{QUOTE_STATUS[q.status].label}</span>
                  </td>
                  <td className="num" data-label="Price">{q.totalMinor !== null && q.currency ? formatMoney(q.totalMinor, q.currency) : '—'}</td>
                  <td data-label="From">
                    {SOURCE[q.source]} {!environment && <EnvironmentBadge environment={q.environment} />}
                  </td>
                  <td data-label="Version">{q.bookVersionNumber === null ? '—' : `v${q.bookVersionNumber}`}</td>
                  <td data-label="Trace">
                    <IntentLink href={`/portal/traces/${q.id}`} aria-label={`Trace of the ${offeringName(q)} quote of ${formatTime(q.createdAt)}`}>
                      Trace
                    </IntentLink>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {quotes.hasNextPage && (
            <button type="button" onClick={() => void quotes.fetchNextPage()} disabled={quotes.isFetchingNextPage} style={{ marginTop: '0.75rem' }}>
              {quotes.isFetchingNextPage ? 'Loading…' : 'Show older quotes'}
            </button>
          )}
        </div>
      )}
    </>
  );
}
