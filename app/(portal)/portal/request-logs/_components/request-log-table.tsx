'use client';

import Link from 'next/link';
import { HttpStatus } from '../../../_components/http-status';
import { EnvironmentBadge, formatTime } from '../../../_components/ui';
import type { RequestLog } from './use-request-logs';

/** The search results, newest first. `filterHref` builds a link that narrows the search. */
export function RequestLogTable({ logs, filterHref }: { logs: RequestLog[]; filterHref: (name: string, value: string) => string }) {
  return (
    <table className="compact" aria-label="Requests">
      <thead>
        <tr>
          <th>Time</th>
          <th>Request</th>
          <th>Status</th>
          <th>Environment</th>
          <th>Caller</th>
          <th className="num">Latency</th>
          <th>Request id</th>
          <th>
            <span className="sr-only">Quote trace</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {logs.map((log) => (
          <tr key={log.requestId}>
            <td style={{ whiteSpace: 'nowrap' }}>{formatTime(log.createdAt)}</td>
            <td>
              <span className="mono">
                {log.method} {log.path}
              </span>
            </td>
            <td>
              <HttpStatus status={log.status} />
              {log.errorCode && (
                <div className="mono muted" style={{ fontSize: '0.8rem' }}>
                  {log.errorCode}
                </div>
              )}
            </td>
            <td>
              <EnvironmentBadge environment={log.environment} />
            </td>
            <td>
              <Caller log={log} filterHref={filterHref} />
            </td>
            <td className="num">{log.latencyMs} ms</td>
            <td className="mono" style={{ whiteSpace: 'nowrap' }}>
              {log.requestId}
            </td>
            <td>{log.quoteIntentId && <Link href={`/portal/traces/${log.quoteIntentId}`}>Trace</Link>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Caller({ log, filterHref }: { log: RequestLog; filterHref: (name: string, value: string) => string }) {
  if (log.principal === 'session') return <>Member</>;
  if (log.principal === 'anonymous' || !log.apiKeyId) return <>Anonymous</>;
  return (
    <>
      API key{' '}
      <Link href={filterHref('apiKeyId', log.apiKeyId)} className="mono" title={`Only requests with key ${log.apiKeyId}`}>
        …{log.apiKeyId.slice(-6)}
      </Link>
    </>
  );
}
