'use client';

import { useQuery } from '@tanstack/react-query';
import { IntentLink } from '../../../../_components/intent-link';
import { useParams } from 'next/navigation';
import type { AnswerOf } from '@/lib/http/contract';
import type { getRequestLogContract } from '@/app/v1/request-logs/contract';
import { apiFetch } from '../../../_components/api';
import { CopyId } from '../../../_components/copy-id';
import { HttpStatus } from '../../../_components/http-status';
import { RequiresAccess } from '../../../_components/requires-access';
import { EnvironmentBadge, ErrorMessage, formatTime, Loading } from '../../../_components/ui';
import { Caller } from '../_components/request-log-table';

type RequestLogDetail = AnswerOf<typeof getRequestLogContract>['log'];

/** One request: who made it from where, how it ended, and what was sent and answered (redacted). */
export default function RequestLogDetailPage() {
  const { requestId } = useParams<{ requestId: string }>();
  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/request-logs">← Request log</IntentLink>
      </p>
      <h1>Request</h1>
      <RequiresAccess page="requestLog" needs="Reading the request log is for workspace members allowed to search it.">
        <Detail requestId={requestId} />
      </RequiresAccess>
    </>
  );
}

function Detail({ requestId }: { requestId: string }) {
  const log = useQuery({
    queryKey: ['request-logs', 'one', requestId],
    queryFn: () => apiFetch<typeof getRequestLogContract>(`/v1/request-logs/${encodeURIComponent(requestId)}`).then((d) => d.log),
  });
  if (log.isPending) return <Loading what="the request" />;
  if (log.isError) return <ErrorMessage error={log.error} />;
  const r = log.data;
  const filterHref = (name: string, value: string) => `/portal/request-logs?${new URLSearchParams({ [name]: value, portal: 'include' })}`;
  return (
    <>
      <p className="mono" style={{ fontSize: '1.05rem', overflowWrap: 'anywhere' }}>
        <strong>{r.method}</strong> {r.path} <HttpStatus status={r.status} /> {r.errorCode && <code>{r.errorCode}</code>}{' '}
        {r.testFault && <span className="badge test">injected by Test-Fault: {r.testFault}</span>}
      </p>
      <div className="grid two">
        <section className="card" aria-labelledby="request-facts">
          <h2 id="request-facts" style={{ marginTop: 0 }}>
            Who and when
          </h2>
          <dl className="facts" aria-label="Request">
            <dt>Time</dt>
            <dd>{formatTime(r.createdAt)}</dd>
            <dt>Latency</dt>
            <dd>{r.latencyMs} ms</dd>
            <dt>Caller</dt>
            <dd>
              <Caller log={r} filterHref={filterHref} />
            </dd>
            {r.apiKeyId && (
              <>
                <dt>API key id</dt>
                <dd>
                  <CopyId id={r.apiKeyId} label="API key id" />
                </dd>
              </>
            )}
            <dt>Environment</dt>
            <dd>
              <EnvironmentBadge environment={r.environment} />
            </dd>
            <dt>Address</dt>
            <dd className="mono">{r.ip ?? <span className="muted">not known</span>}</dd>
            <dt>User agent</dt>
            <dd className="mono" style={{ overflowWrap: 'anywhere', fontSize: '0.85rem' }}>
              {r.userAgent ?? <span className="muted">none sent</span>}
            </dd>
            <dt>Request id</dt>
            <dd>
              <CopyId id={r.requestId} label="request id" chars={36} />
            </dd>
          </dl>
          {r.quoteIntentId && (
            <p style={{ marginBottom: 0 }}>
              This request made a quote: <IntentLink href={`/portal/traces/${r.quoteIntentId}`}>open its trace</IntentLink> for the answers it sent and its receipt.
            </p>
          )}
        </section>
        <section className="card" aria-labelledby="request-bodies">
          <h2 id="request-bodies" style={{ marginTop: 0 }}>
            What was sent and answered
          </h2>
          <Body title="Request body" text={r.requestBody} />
          <Body title={r.status >= 400 ? 'Error answer' : 'Answer'} text={r.responseBody} />
          <p className="muted" style={{ fontSize: '0.85rem', marginBottom: 0 }}>
            Kept for writes and failures, at most 8 KB each, with API keys, webhook secrets and any field named like a secret replaced by
            “[redacted]”; forgotten on {formatTime(r.bodiesKeptUntil)}. Successful quotes keep theirs in the quote’s trace.
          </p>
        </section>
      </div>
    </>
  );
}

function Body({ title, text }: { title: string; text: string | null }) {
  return (
    <div style={{ marginBottom: '0.75rem' }}>
      <h3 style={{ margin: '0 0 0.25rem', fontSize: '0.95rem' }}>{title}</h3>
      {text === null ? (
        <p className="muted" style={{ margin: 0 }}>
          Not kept.
        </p>
      ) : (
        <pre className="body-view" tabIndex={0} aria-label={title}>
          {pretty(text)}
        </pre>
      )}
    </div>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
