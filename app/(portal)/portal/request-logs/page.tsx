'use client';

import { useQueryClient } from '@tanstack/react-query';
import { IntentLink } from '../../../_components/intent-link';
import { useRouter, useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { CompareBar, useComparePicks } from '../../_components/compare-picker';
import { RequiresAccess } from '../../_components/requires-access';
import { narrowsLog, requestLogApiQuery, withCursor } from './_components/request-log-filters';
import { RequestLogSearchForm } from './_components/request-log-search-form';
import { RequestLogTable } from './_components/request-log-table';
import { RetentionSettings } from './_components/retention-settings';
import { useRequestLogs } from './_components/use-request-logs';

const PAGE_PATH = '/portal/request-logs';

export default function RequestLogsPage() {
  return (
    <>
      <h1>Request log</h1>
      <p className="muted">Every call to the API in your workspaces, newest first. New requests appear within a second or two.</p>
      <RequiresAccess page="requestLog" needs="Searching the request log is for workspace members allowed to search it.">
        {/* Above the results, so that it stays where it is while they load. */}
        <RetentionSettings />
        <Suspense fallback={<Loading what="the request log" />}>
          <RequestLogSearch />
        </Suspense>
      </RequiresAccess>
    </>
  );
}

function RequestLogSearch() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const pageParams = useSearchParams();
  const apiQuery = requestLogApiQuery(pageParams);
  const logs = useRequestLogs(apiQuery);
  // Quotes picked to compare stay picked across searches and pages.
  const picks = useComparePicks();
  const href = (params: URLSearchParams) => (params.size > 0 ? `${PAGE_PATH}?${params}` : PAGE_PATH);

  function search(params: URLSearchParams) {
    // Searching again for the same thing means "anything new?": fetch instead of showing the cache.
    if (params.toString() === pageParams.toString()) void queryClient.invalidateQueries({ queryKey: ['request-logs', apiQuery] });
    else router.push(href(params));
  }
  const filterHref = (name: string, value: string) => {
    const params = withCursor(pageParams, null);
    params.set(name, value);
    return href(params);
  };

  return (
    <>
      <RequestLogSearchForm key={pageParams.toString()} current={new URLSearchParams(pageParams.toString())} onSearch={search} />
      <section aria-label="Results" aria-busy={logs.isFetching}>
        {logs.isPending ? (
          <Loading what="requests" />
        ) : logs.isError ? (
          <ErrorMessage error={logs.error} />
        ) : logs.data.logs.length === 0 ? (
          <Empty>
            {narrowsLog(pageParams) ? (
              <>
                No requests match {pageParams.has('cursor') ? 'on this page' : 'these filters'}. Widen the time range or clear a filter;
                a request made just now can take a second to appear.
              </>
            ) : (
              <>
                No requests yet. Requests to this workspace&apos;s API show here, newest first (the portal&apos;s own only when
                asked for); a request made just now can take a second to appear.
              </>
            )}
          </Empty>
        ) : (
          <>
            <CompareBar picks={picks} />
            <RequestLogTable logs={logs.data.logs} filterHref={filterHref} picks={picks} />
          </>
        )}
        <nav aria-label="Pages" className="row" style={{ marginTop: '0.75rem' }}>
          {pageParams.has('cursor') && (
            <IntentLink href={href(withCursor(pageParams, null))} className="button">
              ← Newest
            </IntentLink>
          )}
          {logs.data?.nextCursor && (
            <IntentLink href={href(withCursor(pageParams, logs.data.nextCursor))} className="button">
              Older →
            </IntentLink>
          )}
        </nav>
      </section>
    </>
  );
}
