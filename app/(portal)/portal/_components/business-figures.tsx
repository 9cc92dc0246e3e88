'use client';

import { useQuery } from '@tanstack/react-query';
import { IntentLink } from '../../../_components/intent-link';
import dynamic from 'next/dynamic';
import type { AnswerOf } from '@/lib/http/contract';
import { pipelineCountText } from '@/lib/overview/pipeline-count';
import type { businessOverviewContract } from '@/app/v1/businesses/contract';
import { apiFetch } from '../../_components/api';
import { mayInWorkspaceOf, mayReviewQuotes, mayWorkLeads } from '../../_components/portal-access';
import type { Business, Workspace } from '../../_components/queries';
import { TableHead } from '../../_components/table-head';
import { ErrorMessage, Loading } from '../../_components/ui';
import { dayLabel } from './day-label';

// recharts (with its redux and d3) is a third of the Overview's JavaScript: it loads after the page,
// into the chart's box of fixed height, so that neither first paint nor hydration waits for it.
/** GET /v1/businesses/{id}/overview's `overview`, typed by its contract. */
export type BusinessOverview = AnswerOf<typeof businessOverviewContract>['overview'];

const QuotesPerDayChart = dynamic(() => import('./quotes-per-day-chart').then((m) => m.QuotesPerDayChart), { ssr: false });

/**
 * The first things a business looks at: its quotes by day, its integrations' health, its set-up.
 * What waits, and the set-up steps, are only what this person can act on (portal-access).
 */
export function BusinessFigures({ business, workspaces }: { business: Business; workspaces: readonly Workspace[] }) {
  const overview = useQuery({
    queryKey: ['businesses', business.id, 'overview'],
    queryFn: () => apiFetch<typeof businessOverviewContract>(`/v1/businesses/${business.id}/overview`).then((d) => d.overview),
  });
  if (overview.isPending) return <Loading what="figures" />;
  if (overview.isError) return <ErrorMessage error={overview.error} />;
  const o = overview.data;
  const total = o.quotesPerDay.reduce((sum, d) => sum + d.succeeded + d.requiresInput + d.failed, 0);
  const may = (permission: string) => mayInWorkspaceOf(business, workspaces, permission);
  const reviews = mayReviewQuotes(business, workspaces);
  const worksLeads = mayWorkLeads(business, workspaces);
  const steps = [
    { done: o.checklist.bookPublished, label: 'Publish a price book to Live', href: '/portal/books', can: may('books:publish') },
    { done: o.checklist.apiKeyCreated, label: 'Create an API key for your software', href: '/portal/api-keys', can: may('api_keys:create') },
    { done: o.checklist.quoteMade, label: 'Make a first quote on your hosted page', href: `/q/${business.id}`, can: true },
    { done: o.checklist.endpointAdded, label: 'Add a webhook endpoint', href: '/portal/webhooks', can: may('webhooks:manage') },
  ].filter((step) => step.can);
  return (
    <div className="overview-figures">
      {(reviews || worksLeads) && (
        <section aria-labelledby={`${business.id}-waiting`}>
          <h3 id={`${business.id}-waiting`}>Waiting for you</h3>
          <dl className="facts" aria-label={`Waiting for ${business.branding.displayName}`}>
            {reviews && (
              <>
                <dt>Held quotes to review</dt>
                <dd data-testid="overview-held">
                  {o.pipeline.heldQuotes === 0 ? 'none' : <IntentLink href={`/portal/review?business=${business.id}`}>{o.pipeline.heldQuotes.toLocaleString()} waiting</IntentLink>}
                </dd>
              </>
            )}
            {worksLeads && (
              <>
                <dt>Leads this week</dt>
                <dd data-testid="overview-leads">
                  {o.pipeline.leadsThisWeek === 0 && o.pipeline.newLeads === 0 ? (
                    'none'
                  ) : (
                    <IntentLink href={`/portal/leads?business=${business.id}`}>
                      {pipelineCountText(o.pipeline.leadsThisWeek)} this week, {pipelineCountText(o.pipeline.newLeads)} not contacted yet
                    </IntentLink>
                  )}
                </dd>
                <dt>Prices expiring in 7 days</dt>
                <dd data-testid="overview-expiring">{o.pipeline.expiringSoon === 0 ? 'none' : `${pipelineCountText(o.pipeline.expiringSoon)} not accepted or committed yet`}</dd>
              </>
            )}
          </dl>
        </section>
      )}
      <section aria-labelledby={`${business.id}-quotes`}>
        <h3 id={`${business.id}-quotes`}>Live quotes, last 14 days ({total.toLocaleString()})</h3>
        <div aria-hidden="true" style={{ width: '100%', height: 200 }} data-testid="overview-chart">
          <QuotesPerDayChart days={o.quotesPerDay} />
        </div>
        <div className="sr-only">
          <table aria-label={`Live quotes per day of ${business.branding.displayName}`}>
            <TableHead columns={['Day', 'Priced', 'Needed more answers', 'Could not be priced']} />
            <tbody>
              {o.quotesPerDay.map((d) => (
                <tr key={d.day}>
                  <td>{dayLabel(d.day)}</td>
                  <td>{d.succeeded}</td>
                  <td>{d.requiresInput}</td>
                  <td>{d.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <h3>Your integrations, last 7 days</h3>
      <dl className="facts" aria-label="Last 7 days">
        <dt>API calls, 7 days</dt>
        <dd data-testid="overview-api">
          {o.apiCalls.total === 0 ? 'none' : `${o.apiCalls.total.toLocaleString()}, ${o.apiCalls.errorRate}% refused or failed`}
        </dd>
        <dt>Webhooks, 7 days</dt>
        <dd data-testid="overview-webhooks">
          {o.webhooks.attempts === 0 ? 'no attempts' : `${o.webhooks.successRate}% of ${o.webhooks.attempts.toLocaleString()} attempts answered 2xx`}
        </dd>
      </dl>
      <section aria-labelledby={`${business.id}-start`}>
        <h3 id={`${business.id}-start`}>
          Getting started ({steps.filter((s) => s.done).length} of {steps.length})
        </h3>
        <ul className="checklist" aria-label={`Getting started with ${business.branding.displayName}`}>
          {steps.map((step) => (
            <li key={step.label} className={step.done ? 'done' : undefined} aria-label={`${step.label}: ${step.done ? 'done' : 'to do'}`}>
              <span aria-hidden="true">{step.done ? '✓' : '○'}</span> {step.href && !step.done ? <IntentLink href={step.href}>{step.label}</IntentLink> : step.label}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
