'use client';

import Link from 'next/link';
import { HttpStatus } from '../../../_components/http-status';
import { EnvironmentBadge } from '../../../_components/ui';
import type { RequestLog } from './use-request-logs';

/** The search results, newest first. `filterHref` builds a link that narrows the search. */
export function RequestLogTable({ logs, filterHref }: { logs: RequestLog[]; filterHref: (name: string, value: string) => string }) {
  return (
    <div className="table-scroll">
      <table className="compact" aria-label="Requests">
        <thead>
          <tr>
            <th>Time</th>
            <th>Request</th>
            <th>Status</th>
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
              <td style={{ whiteSpace: 'nowrap' }}>
                <LogTime iso={log.createdAt} />
              </td>
              <td className="mono" style={{ overflowWrap: 'anywhere', minWidth: '8rem' }}>
                <span style={{ whiteSpace: 'nowrap' }}>{log.method}</span> {log.path}
              </td>
              <td>
                <HttpStatus status={log.status} />
                {log.errorCode && (
                  <div className="mono muted" style={{ fontSize: '0.8rem' }}>
                    {log.errorCode}
                  </div>
                )}
              </td>
              <td style={{ whiteSpace: 'nowrap' }}>
                <EnvironmentBadge environment={log.environment} /> <Caller log={log} filterHref={filterHref} />
              </td>
              <td className="num">{log.latencyMs} ms</td>
              <td className="mono" style={{ whiteSpace: 'nowrap', fontSize: '0.75rem' }}>
                {log.requestId}
              </td>
              <td>
                {log.quoteIntentId && (
                  <Link href={`/portal/traces/${log.quoteIntentId}`} aria-label={`Trace the quote made by request ${log.requestId}`}>
                    Trace
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Who made the request; a key links to a search for that key's requests. */
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

/** Time of day first (what a search scans for), the date beneath; the full instant on hover. */
function LogTime({ iso }: { iso: string }) {
  const at = new Date(iso);
  return (
    <time dateTime={iso} title={at.toString()}>
      {at.toLocaleTimeString(undefined, { timeStyle: 'medium' })}
      <span className="muted" style={{ display: 'block', fontSize: '0.8rem' }}>
        {at.toLocaleDateString(undefined, { dateStyle: 'medium' })}
      </span>
    </time>
  );
}
