'use client';

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { AnswerOf } from '@/lib/http/contract';
import type { listWorkspaceAccountQuotesContract } from '@/app/v1/account-quotes/contract';
import type { listBusinessAccountQuotesContract } from '@/app/v1/businesses/contract';
import { BusinessScope } from '../../_components/business-scope';
import { Choice, ChoiceGroup } from '../../_components/choice-group';
import { mayReviewQuotes, mayReviewTestQuotes } from '../../_components/portal-access';
import { useWorkspaces, type Business } from '../../_components/queries';
import { RequiresAccess } from '../../_components/requires-access';
import { apiFetch } from '../../_components/api';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { HeldQuoteCard } from './_components/held-quote-card';

/** One page of the member route's Live quotes, or of the workspace route's Test ones. */
type Page = AnswerOf<typeof listBusinessAccountQuotesContract> | AnswerOf<typeof listWorkspaceAccountQuotesContract>;
type View = 'waiting' | 'reviewed' | 'observed' | 'all';

const VIEWS: Record<View, { label: string; query: string; empty: string }> = {
  waiting: { label: 'Waiting for review', query: 'state=awaiting_approval&review=pending', empty: 'Nothing is waiting for review.' },
  reviewed: { label: 'Reviewed', query: 'review=reviewed', empty: 'No quote has been reviewed yet.' },
  observed: { label: 'Observed: what would have been sent', query: 'state=observed', empty: 'No observed quotes: only books set to “Observe only” record them.' },
  all: { label: 'Every quote of the integration', query: '', empty: 'Your integrations have made no quotes here yet.' },
};

export default function ReviewPage() {
  return (
    <>
      <h1>Review</h1>
      <p className="muted">
        Quotes your integrations made that wait for the business before the customer gets them — oldest first — and, for books that only observe,
        what would have been sent.
      </p>
      <RequiresAccess page="review" needs="Held quotes are shown to the members of a business and to workspace members allowed to manage businesses.">
        <BusinessScope>{(business) => <BusinessReview business={business} />}</BusinessScope>
      </RequiresAccess>
    </>
  );
}

function BusinessReview({ business }: { business: Business }) {
  const workspaces = useWorkspaces();
  const seesTest = workspaces.data !== undefined && mayReviewTestQuotes(business, workspaces.data.workspaces);
  const [chosen, setEnvironment] = useState<'live' | 'test'>('live');
  const environment = seesTest ? chosen : 'live';
  const canReview = workspaces.data !== undefined && (environment === 'test' ? seesTest : mayReviewQuotes(business, workspaces.data.workspaces));
  const [view, setView] = useState<View>('waiting');
  const [decided, setDecided] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const quotes = useInfiniteQuery({
    queryKey: ['businesses', business.id, 'account-quotes', environment, view],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }): Promise<Page> => {
      const page = `${VIEWS[view].query}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`;
      // Live: the member route (the business's Live connection, spec 9); Test: the workspace route.
      return environment === 'live'
        ? apiFetch<typeof listBusinessAccountQuotesContract>(`/v1/businesses/${business.id}/account-quotes?${page}`)
        : apiFetch<typeof listWorkspaceAccountQuotesContract>(`/v1/account-quotes?businessId=${business.id}&environment=test&${page}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = quotes.data?.pages.flatMap((p) => p.quotes) ?? [];
  const announcement = useRef<HTMLParagraphElement>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['businesses', business.id, 'account-quotes'] });
    void queryClient.invalidateQueries({ queryKey: ['businesses', business.id, 'overview'] });
    void queryClient.invalidateQueries({ queryKey: ['inbox'] });
  };

  if (!business.connection) return <Empty>This business is not connected to a project, so no integration makes quotes for it.</Empty>;
  return (
    <>
      {!canReview && (
        <p className="notice">
          You can look but not decide: held quotes are approved or declined by the business’s owner (Members lists them), or by
          workspace members allowed to manage businesses.
        </p>
      )}
      <div className="review-filters">
        <ChoiceGroup legend="Show">
          {(Object.keys(VIEWS) as View[]).map((v) => (
            <Choice key={v}>
              <input type="radio" name="review-view" value={v} checked={view === v} onChange={() => setView(v)} />
              {VIEWS[v].label}
            </Choice>
          ))}
        </ChoiceGroup>
        {seesTest && (
          <div className="field">
            <label htmlFor="review-environment">Environment</label>
            <select id="review-environment" value={environment} onChange={(e) => setEnvironment(e.target.value as 'live' | 'test')}>
              <option value="live">Live (customers)</option>
              <option value="test">Test (your integration’s trials)</option>
            </select>
          </div>
        )}
      </div>
      {/* Always in the page, so that screen readers hear what is put in it; focus lands here when a card leaves the list. */}
      <p ref={announcement} className={decided ? 'success' : 'sr-only'} role="status" tabIndex={-1}>
        {decided}
      </p>
      {quotes.isPending ? (
        <Loading what="quotes" />
      ) : quotes.isError ? (
        <ErrorMessage error={quotes.error} />
      ) : rows.length === 0 ? (
        <Empty>{VIEWS[view].empty}</Empty>
      ) : (
        <div aria-label={VIEWS[view].label} role="list">
          {rows.map((quote) => (
            <div role="listitem" key={quote.id}>
              <HeldQuoteCard
                business={business}
                quote={quote}
                canReview={canReview}
                onDecided={(message) => {
                  setDecided(message);
                  announcement.current?.focus();
                  refresh();
                }}
                onStale={refresh}
              />
            </div>
          ))}
          {quotes.hasNextPage && (
            <button type="button" onClick={() => void quotes.fetchNextPage()} disabled={quotes.isFetchingNextPage}>
              {quotes.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </button>
          )}
        </div>
      )}
    </>
  );
}
