'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import type { businessFunnelContract } from '@/app/v1/businesses/contract';
import { FUNNEL_DEFAULT_WEEKS } from '@/lib/funnel/weeks';
import { apiFetch } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import type { Business } from '../../_components/queries';
import { RequiresAccess } from '../../_components/requires-access';
import { TableHead } from '../../_components/table-head';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { funnelStages, unansweredSentence, weekLabel, type BusinessFunnel } from './_components/funnel-stages';

// recharts loads after the page, into boxes of fixed height (docs/architecture.md, "Something heavy").
const FunnelChart = dynamic(() => import('./_components/funnel-chart').then((m) => m.FunnelChart), { ssr: false });
const FunnelTrend = dynamic(() => import('./_components/funnel-trend').then((m) => m.FunnelTrend), { ssr: false });

export default function FunnelPage() {
  return (
    <>
      <h1>Funnel</h1>
      <p className="muted">
        Your Live quotes, week by week: how many were priced, needed more answers, were accepted and won — over the last {FUNNEL_DEFAULT_WEEKS} weeks.
      </p>
      <RequiresAccess page="funnel" needs="The funnel is shown to the members of a business and to workspace members allowed to manage businesses.">
        <BusinessScope>{(business) => <BusinessFunnelView business={business} />}</BusinessScope>
      </RequiresAccess>
    </>
  );
}

function BusinessFunnelView({ business }: { business: Business }) {
  const [offeringId, setOfferingId] = useState('');
  const funnel = useQuery({
    queryKey: ['businesses', business.id, 'funnel', offeringId],
    queryFn: () => {
      const query = new URLSearchParams({ weeks: String(FUNNEL_DEFAULT_WEEKS) });
      if (offeringId) query.set('offeringId', offeringId);
      return apiFetch<typeof businessFunnelContract>(`/v1/businesses/${business.id}/funnel?${query}`).then((d) => d.funnel);
    },
    // The picker keeps the last figures on screen while the next offering's come.
    placeholderData: keepPreviousData,
  });
  const offerings = funnel.data?.offerings ?? [];
  return (
    <>
      <div className="field">
        <label htmlFor="funnel-offering">Service</label>
        <select id="funnel-offering" value={offeringId} onChange={(e) => setOfferingId(e.target.value)} disabled={funnel.isPending}>
          <option value="">Every service</option>
          {offerings.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {funnel.isPending ? (
        <Loading what="the funnel" />
      ) : funnel.isError ? (
        <ErrorMessage error={funnel.error} />
      ) : (
        <FunnelFigures funnel={funnel.data} business={business} refreshing={funnel.isFetching} />
      )}
    </>
  );
}

function FunnelFigures({ funnel, business, refreshing }: { funnel: BusinessFunnel; business: Business; refreshing: boolean }) {
  const { total } = funnel;
  const name = business.branding.displayName;
  if (total.quotes === 0 && total.committed === 0) {
    return (
      <Empty>
        No quotes yet in the last {funnel.weeks.length} weeks{funnel.offeringId ? ' for this service' : ''}. Customers make them on your{' '}
        <a href={`/q/${business.id}`}>hosted quote page</a>.
      </Empty>
    );
  }
  const stages = funnelStages(total);
  return (
    <div className="overview-figures" aria-busy={refreshing}>
      <section aria-labelledby="funnel-stages">
        <h2 id="funnel-stages">From quote to won, last {funnel.weeks.length} weeks</h2>
        <div aria-hidden="true" style={{ width: '100%', height: 230 }} data-testid="funnel-chart">
          <FunnelChart stages={stages} />
        </div>
        <ul className="sr-only" aria-label={`Funnel of ${name}`}>
          {stages.map((s) => (
            <li key={s.key}>
              {s.label}: {s.count.toLocaleString()}
              {s.share !== null && ` (${s.share}% ${s.of})`}
            </li>
          ))}
        </ul>
        <p className="muted">
          Committed counts the commitments your integration confirmed on its own quotes (the account surface); the quotes above are those made on your
          hosted page, by your members and through your API keys.
        </p>
      </section>

      <section aria-labelledby="funnel-prices">
        <h2 id="funnel-prices">Prices</h2>
        {total.price ? (
          <dl className="facts" aria-label="Priced totals">
            <dt>Middle price (median)</dt>
            <dd data-testid="funnel-median">{formatMoney(total.price.medianMinor, total.price.currency)}</dd>
            <dt>Half of prices between</dt>
            <dd data-testid="funnel-spread">
              {formatMoney(total.price.p25Minor, total.price.currency)} and {formatMoney(total.price.p75Minor, total.price.currency)}
            </dd>
            <dt>Prices counted</dt>
            <dd>{total.price.quotes.toLocaleString()}</dd>
          </dl>
        ) : (
          <p className="muted">Nothing priced yet.</p>
        )}
      </section>

      <section aria-labelledby="funnel-unanswered">
        <h2 id="funnel-unanswered">Questions customers leave unanswered</h2>
        {funnel.unanswered.length === 0 ? (
          <p className="muted">Every customer answered every question.</p>
        ) : (
          <ol data-testid="funnel-unanswered">
            {funnel.unanswered.map((u) => (
              <li key={u.input}>{unansweredSentence(u)}</li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="funnel-weeks">
        <h2 id="funnel-weeks">Week by week</h2>
        <div aria-hidden="true" style={{ width: '100%', height: 200 }} data-testid="funnel-trend">
          <FunnelTrend weeks={funnel.weeks} />
        </div>
        <table className="cards" aria-label={`Funnel of ${name} per week`}>
          <TableHead columns={['Week of', 'Quotes', 'Priced', 'Needed answers', 'Accepted', 'Committed', 'Won', 'Median price']} />
          <tbody>
            {funnel.weeks
              .filter((w) => w.quotes > 0 || w.committed > 0)
              .reverse()
              .map((w) => (
                <tr key={w.week}>
                  <td data-label="Week of">{weekLabel(w.start)}</td>
                  <td data-label="Quotes">{w.quotes.toLocaleString()}</td>
                  <td data-label="Priced">{w.priced.toLocaleString()}</td>
                  <td data-label="Needed answers">{w.requiresInput.toLocaleString()}</td>
                  <td data-label="Accepted">{w.accepted.toLocaleString()}</td>
                  <td data-label="Committed">{w.committed.toLocaleString()}</td>
                  <td data-label="Won">{w.won.toLocaleString()}</td>
                  <td data-label="Median price">{w.price ? formatMoney(w.price.medianMinor, w.price.currency) : '—'}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
